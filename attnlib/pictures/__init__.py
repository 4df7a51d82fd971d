"""The pictures wing: heatmaps, the chapter's figures and charts, drawn with matplotlib.

Here live the one description of a heatmap (:mod:`.panel`), one heatmap on a
given Axes (:mod:`.heatmap`: the cells, their values, the token names, the
colorbar and the outlines, all with matplotlib's public API), panels side by
side and the figure's geometry (:mod:`.layout`, measuring text with
:mod:`.text_size`), the chapter's figures (:mod:`.plotting`), the
experiments' charts (:mod:`.charts`) and the fonts shipped with attnlib
(:mod:`.fonts`, ``font_files/``).
It may import the maths and i18n wings and matplotlib; never the explorers,
the lessons or ipywidgets.
"""
