"""``gouji event serve``: a club night on phones.

Results are entered at the table (one side enters, the other confirms), the
standings and the seating are shown to anyone on the club's network, and the
organiser prints seating and score sheets with a QR code per side.  Modules:
``links`` (the unguessable per-table links and the organiser's token),
``tables`` (entering, confirming and rejecting a hand, on top of
``tournament.club``), ``i18n`` (Chinese first, English on request) and ``app``
(the Starlette application).  See docs/club-night.md.
"""
