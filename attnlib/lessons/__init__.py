"""The lessons wing: what the notebooks teach with, beyond the maths and the pictures.

Here live the self-checks of the exercises (:mod:`.checks`) and their worked
answers (:mod:`.solutions`) and the error shown on purpose (:mod:`.demo`). It may
import the maths and i18n wings (and the pictures, were a lesson to need one);
only attnlib's top level imports it. It never imports matplotlib or ipywidgets at
module level. (The breakdown of a score, ``explain``, lives with the readouts that
show it, in the explorers wing; the lookup task trained in notebook 06, a model
in numpy, in the maths wing.)
"""
