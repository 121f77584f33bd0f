"""Data files shipped with the package (the JSON Schema); variants/ and grammar/ are mapped in here."""
