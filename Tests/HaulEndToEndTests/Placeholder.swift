// HaulEndToEndTests: placeholder until its first real test lands.
