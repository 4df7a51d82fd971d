"""The pictures wing: heatmaps, the chapter's figures and charts, drawn with matplotlib.

Here live one heatmap on a given Axes (:mod:`.heatmap`, with the numbers in
its cells from :mod:`.cell_values`, its colorbar's scale from :mod:`.bar_scale`
and its token names from :mod:`.token_labels`, all pasted from
:mod:`.glyphs`, the numbers blended straight into
Agg's pixels by :mod:`.agg_blend`), the panel description and figure geometry (:mod:`.layout`),
the chapter's figures (:mod:`.plotting`), the experiments' charts
(:mod:`.charts`)
and the Chinese font shipped with attnlib (:mod:`.fonts`, ``font_files/``).
It may import the maths and i18n wings and matplotlib; never the explorers,
the lessons or ipywidgets.
"""
