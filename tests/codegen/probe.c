void probe_nothing(void) {}
