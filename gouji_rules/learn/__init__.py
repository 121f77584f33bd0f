"""A learned agent and the self-play that trains it (Deep Monte Carlo, DouZero's method).

``net`` is the Q-network and its weights file (numpy only), ``features`` turns a decision into
the network's input, ``agent`` plays with it, ``selfplay`` produces training samples,
``duplicate`` measures strength on duplicate deals and ``train`` is the loop behind ``gouji train``.
"""
