"""Local fakes of services outside the machine, speaking their real protocols over HTTP."""
