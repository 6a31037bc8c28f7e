"""History and corrections (issue #5): revert, delete, purge, the audit log."""
