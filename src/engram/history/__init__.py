"""History and corrections (issue #5): the operation log, revert, retraction of episodes, purge."""
