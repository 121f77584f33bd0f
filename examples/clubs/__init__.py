"""Three club files kept out of training (issue 32), installed as ``gouji_rules.data.clubs`` so that an
installed ``gouji train`` refuses them too, and so that strength under rules the agent never trained on
can be measured from any install."""
