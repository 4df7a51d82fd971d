"""How soon Chromium shows a new explorer picture: from a Blob URL or from a data: URL.

    python benchmarks/bench_picture_url.py     # about 20 s; in make bench; skipped without Chromium

ipywidgets' Image view turns the picture's bytes into a Blob URL and sets it as
the ``<img>``'s source; with the format "url" it sets the bytes, a URL, as they
are. ``attnlib.explorers.controller.Picture`` sends a ``data:`` URL that way.
This script takes twelve pictures of ``attnlib.explorer`` (seeds 0-11, at n = 32
and at n = 6), and in headless Chromium (``ATTNLIB_CHROMIUM``, else
/usr/bin/chromium) sets each as an image's source both ways, as the view does,
alternating the two ways in three rounds. Per way it prints the median time
from setting the source to the image's ``load`` event, and to the animation
frame after it (what tests/browser's keypress figure ends on).
"""

from __future__ import annotations

import base64
import os
import statistics
from pathlib import Path

ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# As ipywidgets' ImageView.update does it: a Blob URL of the bytes (the old one
# revoked), or the bytes decoded as the URL itself.
SHOW_JS = """async ([pictures, way]) => {
  const img = document.getElementById('picture');
  const times = [];
  for (const b64 of pictures) {
    const bytes = way === 'blob'
      ? Uint8Array.from(atob(b64), c => c.charCodeAt(0))
      : new TextEncoder().encode('data:image/png;base64,' + b64);
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
    let loaded;
    const shown = new Promise(r => { img.onload = () => {
      loaded = performance.now(); requestAnimationFrame(() => r(performance.now())); }; });
    const t0 = performance.now();
    if (way === 'blob') {
      const old = img.src;
      img.src = URL.createObjectURL(new Blob([bytes], {type: 'image/png'}));
      if (old) URL.revokeObjectURL(old);
    } else {
      img.src = new TextDecoder('utf-8').decode(bytes.buffer);
    }
    const frame = await shown;
    times.push([loaded - t0, frame - t0]);
  }
  return times;
}"""


def pictures(n: int, count: int = 12) -> list[bytes]:
    import attnlib

    explorer = attnlib.explorer(n=n)
    out = []
    for seed in range(count):
        explorer.seed.value = seed
        out.append(bytes(explorer.image.value))
    return out


def main() -> None:
    chromium = os.environ.get("ATTNLIB_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        print(f"skipped: no Chromium at {chromium} (apt-get install chromium; ATTNLIB_CHROMIUM)")
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_content("<html><body><img id='picture'></body></html>")
        for n in (32, 6):
            pngs = pictures(n)
            b64 = [base64.b64encode(p).decode() for p in pngs]
            print(f"n = {n}: {len(pngs)} pictures, median {statistics.median(map(len, pngs))} B")
            times = {"blob": [], "data": []}
            for _ in range(3):
                for way in times:
                    times[way] += page.evaluate(SHOW_JS, [b64, way])[1:]  # first: warm-up
            for way, rows in times.items():
                load = statistics.median(t[0] for t in rows)
                frame = statistics.median(t[1] for t in rows)
                print(
                    f"  {way:>4} URL: source -> load median {load:5.1f} ms, "
                    f"-> next frame {frame:5.1f} ms ({len(rows)} pictures)"
                )
        browser.close()
    print("load average", " ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
