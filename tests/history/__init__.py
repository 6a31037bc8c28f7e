"""History and corrections: revert, delete, purge, the audit log."""
