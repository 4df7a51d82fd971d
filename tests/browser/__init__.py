"""Browser tests: JupyterLab and Voilà in headless Chromium, driven by Playwright."""
