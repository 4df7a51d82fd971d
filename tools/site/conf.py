# Sphinx settings of one edition of the course website (tools/site/build.py passes the
# edition in the environment). myst-nb reads the notebooks' stored outputs (execution
# off); sphinx-book-theme's assets come in its wheel; MathJax 2 comes from the
# jupyter-server-mathjax wheel and is served from the site: nothing loads from elsewhere.
import json
import os

edition = json.loads(os.environ["ATTNLIB_SITE_EDITION"])

project = edition["title"]
author = "attnlib"
copyright = "attnlib contributors"
language = edition["sphinx_language"]  # zh_CN: the search splits Chinese words (jieba)
extensions = ["myst_nb"]
nb_execution_mode = "off"  # the notebooks' stored outputs, as `make notebooks` left them
nb_output_stderr = "remove"
nb_code_prompt_show = edition["code_show"]  # the closed code of an answer cell (hide-input)
nb_code_prompt_hide = edition["code_hide"]
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.xref_missing", "misc.highlighting_failure", "mystnb.unknown_mime_type"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "sphinx_book_theme"
html_title = edition["title"]
html_copy_source = False  # the notebooks are offered as they are, under notebooks/
html_show_sourcelink = False
html_static_path = [edition["static"]]
html_css_files = ["attnlib/explorer.css", "attnlib/site.css"]
html_js_files = ["attnlib/explorers.js", "attnlib/checks.js"]
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "navigation_with_keys": False,
}
html_last_updated_fmt = None
html_permalinks_icon = "#"
# MathJax 2 from the site's own _static/mathjax (STIX web fonts, as JupyterLab's copy ships)
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
    },
    "HTML-CSS": {
        "availableFonts": [],
        "webFont": "STIX-Web",
        "imageFont": None,
        "preferredFont": None,
        "linebreaks": {"automatic": True},
    },
    "menuSettings": {"zoom": "None"},
    "showMathMenu": False,
    # no "Loading…/Typesetting…" box: it sat at the page's foot outside every landmark
    # while MathJax worked (axe-core: region), and a reader does not need it
    "messageStyle": "none",
}
# MathJax 2 typesets every \( \) and \[ \] outside code (myst's update is for MathJax 3)
myst_update_mathjax = False
html_context = {"default_mode": "light"}  # the theme's own default, said, so it logs no error
html_favicon = edition["favicon"]  # a file of the site's: no request for /favicon.ico


def setup(app):
    # Sphinx 9.0's Chinese search ships the English stemmer (for the Latin words among the
    # Chinese) but names it ChineseStemmer in language_data.js, which then throws on every
    # page: name it after the stemmer it ships.
    from sphinx.search.zh import SearchChinese

    if SearchChinese.js_stemmer_rawcode == "english-stemmer.js":
        SearchChinese.language_name = "English"


templates_path = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")]
