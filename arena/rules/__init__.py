"""The rules core: a pure, event-sourced referee. No I/O, no clock, no global random."""
