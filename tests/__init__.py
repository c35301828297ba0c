"""The test suite: run by `./dev test` (pytest); folders mirror the code, helpers are in kits/."""
