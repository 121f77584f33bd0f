"""Shipped variant files (installed as ``gouji_rules.data.variants``)."""
