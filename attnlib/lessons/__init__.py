"""The lessons wing: what the notebooks teach with, beyond the maths and the pictures.

Here live the self-checks of the exercises (:mod:`.checks`) and their worked
answers (:mod:`.solutions`), every number behind one score (:mod:`.explanation`),
the lookup task trained in notebook 06 (:mod:`.lookup`) and the error shown
on purpose (:mod:`.demo`). It may import the maths and i18n wings (and the
pictures, were a lesson to need one); only the explorers and attnlib's top
level import it. It never imports matplotlib or ipywidgets at module level.
"""
