"""Tests of the shared play machinery."""
