"""Helpers shared by several test modules: apps, fake measurements, courses written on the fly, Pilot waits.

A test module imports what it shares from here, never from another test module, so that editing one test file
cannot break another. Data files (courses, traces, sysfs trees) and their builders stay in ``tests/fixtures``; the
pytest fixtures every test gets (a private data dir, the two store engines) stay in ``tests/conftest.py``.
"""
