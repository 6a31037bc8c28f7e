"""History and corrections: the operation log, revert, retraction of episodes, purge."""
