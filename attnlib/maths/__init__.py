"""The maths wing: attention in numpy, and the toy data and numbers built on it.

Here live the forward pass (:mod:`.core`), the chapter's formulas as loops
(:mod:`.reference`, an independent check), the gradients by hand
(:mod:`.backward`), the toy sentence and weights (:mod:`.data`), the
readout numbers and the √d_k experiment (:mod:`.stats`), the lookup task and
the one-layer model trained on it in notebook 06 (:mod:`.lookup`) and the checks
of arguments at the boundary (:mod:`.validation`). It imports numpy and nothing
else: no other wing of attnlib, no matplotlib, no ipywidgets.
"""
