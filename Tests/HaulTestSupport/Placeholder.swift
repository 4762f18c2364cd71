// Shared test helpers: placeholder.
