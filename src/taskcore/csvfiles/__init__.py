"""Chores in and out as CSV files (SPEC section 35): the export written (``writing``) and an import read
(``reading``). Pure: text and values in, text and values out; the use cases are ``services.task_export`` and
``services.task_import``."""
