"""Lark grammars (installed as ``gouji_rules.data.grammar``)."""
