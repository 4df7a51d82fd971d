"""A whole class on this machine: `make class` (N=20 students, K=10 slider moves), and
the capacity curve: `make class-curve` (N = 10, 20, 40 one after another).

Deselected from `make test` (marker `hub`): it starts JupyterHub and N servers and
takes minutes. Options, as environment variables (the Makefile passes them on):
CLASS_N students, CLASS_K slider moves each, CLASS_BROWSERS of them in Chromium,
CLASS_THINK seconds between a student's moves, on average (default 1: press a key,
look at the picture; 0: every student as fast as the kernel answers, a stress test),
CLASS_SPREAD seconds over which the students arrive (default 0: all log in at once)
and CLASS_ARRIVAL how (even: student k at k * SPREAD / N; random: seeded),
CLASS_TARGETS=0 to report the figures without failing on the speed/memory targets.
The curve: CLASS_CURVE="10 20 40" (the class sizes, each with logins spread over
CLASS_SPREAD s) and CLASS_CURVE_AT_ONCE="20" (the sizes also run all at once).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest
import requests

pytestmark = pytest.mark.hub

N = int(os.environ.get("CLASS_N", "20"))
K = int(os.environ.get("CLASS_K", "10"))
BROWSERS = int(os.environ.get("CLASS_BROWSERS", "2"))
THINK_S = float(os.environ.get("CLASS_THINK", "1"))
SPREAD_S = float(os.environ.get("CLASS_SPREAD", "0"))
ARRIVAL = os.environ.get("CLASS_ARRIVAL", "even")
TARGETS = os.environ.get("CLASS_TARGETS", "1") != "0"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "class"


def test_a_server_starts_without_building_the_iri_parsers():
    # jsonschema 4.25+ builds rfc3987-syntax's 35 parsers (with lark) when a server
    # imports it: half of the server's start-up CPU. The test constraints keep it below,
    # as the deployments do (binder/, deploy/*/requirements.txt).
    code = (
        "import sys, jupyterhub.singleuser, jupyter_server.serverapp; "
        "print(sorted({'rfc3987_syntax', 'lark'} & set(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", f"a server start imports {run.stdout.strip()}"


def test_a_class(tmp_path):
    from . import simulation as sim

    f = run_class(tmp_path, N, SPREAD_S, ARRIVAL, min(BROWSERS, N), full=True)
    (ARTIFACTS / "figures.json").write_text(json.dumps(f, indent=2, default=str))
    print_figures(f)

    # one student's failure is named here; the others were measured all the same
    assert not f["failed"], "students failed:\n" + "\n".join(
        f"{name}: {why}" for name, why in f["failed"].items()
    )
    assert not f["lost"], f"saved work lost: {f['lost']}"
    assert not f["leftover_processes"], f"processes left (killed now): {f['leftover_processes']}"
    assert not f["browser_problems"], f["browser_problems"]
    assert not f["moves_missing"], f"students with fewer than K={K} moves: {f['moves_missing']}"
    if TARGETS:
        assert f["login_to_ready_s"]["max"] <= sim.READY_S, f["login_to_ready_s"]
        # PSS: each process's own pages plus its share of the pages it shares (libraries,
        # between a student's server and kernel and across students); summed over the
        # class it is the memory the class takes. RSS counts shared pages in full in
        # every process (reported, and used for the Kubernetes guarantee).
        assert f["memory_drawn_mb"]["pss"]["max"] <= sim.MEMORY_MB, f["memory_drawn_mb"]
        assert f["redraw_ms"]["p95"] <= sim.REDRAW_P95_MS, f["redraw_ms"]
        assert not f["kernel_reconnects"], f"kernel connections dropped: {f['kernel_reconnects']}"


def curve_plan() -> list[tuple[int, float]]:
    """(N, spread in seconds) for each run of the curve, smallest class first."""
    sizes = [int(x) for x in os.environ.get("CLASS_CURVE", "").split()]
    at_once = [int(x) for x in os.environ.get("CLASS_CURVE_AT_ONCE", "20").split()]
    runs = {(n, SPREAD_S) for n in sizes} | {(n, 0.0) for n in at_once}
    return sorted(runs, key=lambda r: (r[0], -r[1]))


@pytest.mark.skipif(not os.environ.get("CLASS_CURVE"), reason='CLASS_CURVE="10 20 40" to run')
def test_capacity_curve(tmp_path):
    from . import simulation as sim

    if not SPREAD_S:
        pytest.fail("the curve spreads the logins: CLASS_SPREAD must be > 0 (make class-curve: 60)")
    runs = []
    for n, spread in curve_plan():
        f = run_class(tmp_path / f"N{n}-spread{spread:g}", n, spread, ARRIVAL, 0, full=False)
        print_figures(f)
        missed = sim.targets_missed(f)
        runs.append({"N": n, "arrival": f["arrival"], "missed": missed, "figures": f})
        (ARTIFACTS / "curve.json").write_text(json.dumps(runs, indent=2, default=str))
        # not asserted per run: a class too large for the machine is a point on the curve
        assert not f["leftover_processes"], f["leftover_processes"]
    print(sim.curve_table(runs, sim.arrival_label(SPREAD_S, ARRIVAL)))


def run_class(tmp_path: Path, n: int, spread_s: float, arrival: str, browsers: int, full: bool):
    """One class of `n`: hub, logins (arriving as `spread_s` and `arrival` say), servers,
    notebook 05, everyone's slider moves; with `full`, also wrong passwords, isolation,
    saves across a restart and a course update. Returns the figures; a student who
    fails is named in figures["failed"] and left out, the others are still measured."""
    from . import simulation as sim

    if browsers and not sim.chromium_path():
        pytest.fail("CLASS_BROWSERS > 0 needs Chromium (/usr/bin/chromium or ATTNLIB_CHROMIUM)")
    tmp_path.mkdir(parents=True, exist_ok=True)
    offsets = sim.arrival_offsets(n, spread_s, arrival)
    mine_before = {p.pid for p in psutil.Process().children(recursive=True)}
    names = [f"student{i:02d}" for i in range(1, n + 1)]
    passwords = {name: secrets.token_urlsafe(12) for name in names}
    course = tmp_path / "course.git"
    course_url = sim.make_course(sim.ROOT, course)
    failed: dict[str, str] = {}  # student -> what went wrong
    figures: dict = {
        "N": n,
        "K": K,
        "browsers": browsers,
        "think_s": THINK_S,
        "arrival": sim.arrival_label(spread_s, arrival),
        "arrival_offsets_s": [round(t, 2) for t in offsets],
    }
    load = {"before": os.getloadavg()}

    hub = sim.Hub(
        tmp_path,
        passwords,
        course_url,
        keep_log=ARTIFACTS / "jupyterhub.log",
        run_label=f"N{n}-" + ("at-once" if not spread_s else f"spread{spread_s:g}s"),
    )
    with hub:
        students = [sim.Student(hub, name, passwords[name], course_url) for name in names]
        in_browser = set(names[:browsers])

        # -- no one let in: wrong passwords -------------------------------------------
        refused = []
        for tried, password in (
            ("wrong password", "not-" + passwords[names[0]]),
            ("another student's password", passwords[names[-1]] if n > 1 else "x" * 16),
            ("empty password", ""),
        )[: 3 if full else 0]:
            r = students[0].login(password=password)
            got_in = r.status_code in (301, 302) or "jupyterhub-session-id" in r.cookies
            refused.append((tried, r.status_code, not got_in))
        assert all(ok for *_, ok in refused), f"a wrong password let a student in: {refused}"
        assert all(code == 403 for _, code, _ in refused), refused

        # -- the class: log in, start, pull, run, then everyone moves sliders at once ---
        memory_drawn: dict = {}

        pids: dict[str, list[int]] = {}  # student -> their server's and kernel's pids

        def measure():
            hub.remember()
            memory_drawn.update(hub.memory())
            pids.update({u: [p.pid for p in procs] for u, procs in hub.servers().items()})
            load["drawn"] = os.getloadavg()

        start = sim.ClassBarrier(names, action=measure)
        timings = {}
        # Each student has the hub's login page open (Chromium students: loaded and
        # filled in) before the class's clock starts: "log in now" means pressing the
        # button, and a real student's browser does not load the page on the hub's CPU.
        # Then each signs in at their arrival time on that clock.
        clock = {"t": time.perf_counter()}
        door = sim.ClassBarrier(names, action=lambda: clock.update(t=time.perf_counter()))

        def arrive(s: sim.Student, index: int) -> None:
            door.wait(s.name, timeout=300)
            time.sleep(max(0.0, clock["t"] + offsets[index] - time.perf_counter()))

        def rest_student(s: sim.Student, index: int):
            s.open_login()
            arrive(s, index)
            t0 = time.perf_counter()
            r = s.submit_login()
            assert r.status_code == 302, f"login -> {r.status_code}"
            # the browser's route: the login sends it to the spawn page, which starts the
            # server; the harness's API token is asked for while the server starts
            spawned = s.spawn_after_login(r)
            s.get_token()
            ready = s.wait_until_ready(spawned)
            timings[s.name] = {"start_s": ready, "login_to_ready_s": time.perf_counter() - t0}
            if (cpu_s := hub.server_cpu_s(s.name)) is not None:
                timings[s.name]["start_cpu_s"] = cpu_s
            s.pull_course()
            s.open_notebook()
            timings[s.name]["run_notebook_s"] = s.run_notebook()
            # waiting for the class, the kernel's connection stays open and answered
            start.wait(s.name, timeout=900, idle=s.kernel.idle)
            s.pids = pids.get(s.name, [])
            s.move_sliders(K, random.Random(index), THINK_S)

        def browser_student(s: sim.Student, index: int):
            result = sim.browser_student(
                hub, s, K, start, THINK_S, random.Random(index), lambda: arrive(s, index)
            )
            timings[s.name] = {
                "login_to_ready_s": result["login_to_server_s"],
                "login_to_lab_s": result["login_to_lab_s"],
                "login_page_s": result["login_page_s"],
            }
            s.timings["browser"] = result
            r = s.login()  # a second login over HTTP, for the API checks below
            assert r.status_code == 302, f"login -> {r.status_code}"
            s.get_token()

        def run(s: sim.Student, index: int):
            try:
                (browser_student if s.name in in_browser else rest_student)(s, index)
            except Exception as exc:  # named, and the class goes on without them
                failed[s.name] = f"{type(exc).__name__}: {exc}"[:300]
                door.leave(s.name)
                start.leave(s.name)

        with ThreadPoolExecutor(max_workers=n) as pool:
            list(pool.map(run, students, range(n)))
        figures["class_wall_s"] = time.perf_counter() - clock["t"]
        load["after_moves"] = os.getloadavg()
        memory_after = hub.memory()
        hub.remember()
        for s in students:
            s.close()
        # the rest of the run, and every figure, is about the students still here
        present = [s for s in students if s.name not in failed]

        def each(fn, who):  # fn(s) for every student at once; a failure is named
            def guarded(s):
                try:
                    fn(s)
                except Exception as exc:
                    failed.setdefault(s.name, f"{type(exc).__name__}: {exc}"[:300])

            with ThreadPoolExecutor(max_workers=max(1, len(who))) as pool:
                list(pool.map(guarded, who))

        # -- the hub listens on loopback only -----------------------------------------
        listening = hub.listening()
        assert listening and all(a.startswith(("127.", "[::1]", "::1")) for a in listening), (
            listening
        )

        # -- no one let in: A's token against B's server, files, kernels ----------------
        isolation = []
        for i, a in enumerate(present if full else []):
            b = present[(i + 1) % len(present)] if len(present) > 1 else None
            if b is None:
                break
            b_kernels = b.api("GET", f"/user/{b.name}/api/kernels").json()
            checks = {
                "B's file list": ("GET", f"/user/{b.name}/api/contents/{sim.COURSE_DIR}"),
                "B's notebook": ("GET", f"/user/{b.name}/api/contents/{sim.NOTEBOOK}"),
                "write B's file": ("PUT", f"/user/{b.name}/api/contents/stolen.txt"),
                "B's kernels": ("GET", f"/user/{b.name}/api/kernels"),
                "B's kernel": ("GET", f"/user/{b.name}/api/kernels/{b_kernels[0]['id']}"),
                "B's sessions": ("GET", f"/user/{b.name}/api/sessions"),
                "B's user model": ("GET", f"/hub/api/users/{b.name}"),
                "B's server start": ("POST", f"/hub/api/users/{b.name}/server"),
                "B's server stop": ("DELETE", f"/hub/api/users/{b.name}/server"),
                "a token for B": ("POST", f"/hub/api/users/{b.name}/tokens"),
            }
            for what, (method, path) in checks.items():
                body = {"json": {"type": "file", "format": "text", "content": "x"}}
                r = a.api(method, path, **(body if method == "PUT" else {}))
                isolation.append((a.name, what, r.status_code))
            # A's browser session (the hub's login cookie) asking for B's JupyterLab: the
            # hub's OAuth step must refuse; and no credentials at all
            r = a.http.get(f"{hub.url}/user/{b.name}/lab", timeout=60)
            isolation.append((a.name, "B's JupyterLab with A's login cookie", r.status_code))
            r = requests.get(f"{hub.url}/user/{b.name}/api/contents", timeout=60)
            isolation.append((a.name, "B's files without a token", r.status_code))
            ws = hub.url.replace("http://", "ws://")
            try:
                sim.Kernel(
                    f"{ws}/user/{b.name}/api/kernels/{b_kernels[0]['id']}/channels", a.token
                ).close()
                isolation.append((a.name, "B's kernel websocket", 101))
            except Exception as exc:
                code = getattr(exc, "status_code", None)
                isolation.append((a.name, "B's kernel websocket", code or repr(exc)))
        let_in = [c for c in isolation if c[2] not in (403, 404)]
        assert not let_in, f"a student's token reached another's server: {let_in[:5]}"

        # -- nothing lost: save, stop, teacher updates the course, start, pull again ----
        saved = {}
        lost = []
        restart = {}

        def save_work(s: sim.Student):
            r = s.contents(sim.NOTEBOOK)
            r.raise_for_status()
            model = r.json()
            mark = f"{s.name}'s own note {secrets.token_hex(4)}"
            model["content"]["cells"].append(
                {"cell_type": "markdown", "metadata": {}, "source": mark, "id": "student-note"}
            )
            s.save(sim.NOTEBOOK, {"type": "notebook", "content": model["content"]})
            notes = f"notes of {s.name}: {secrets.token_hex(8)}\n"
            s.save("my_notes.txt", {"type": "file", "format": "text", "content": notes})
            saved[s.name] = (mark, notes)

        each(save_work, present if full else [])
        if full:
            each(lambda s: s.stop_server(), present)
            teacher_file = sim.update_course(course, tmp_path / "teacher")

        def come_back(s: sim.Student):
            restart[s.name] = s.start_server()
            s.pull_course()

        each(come_back, [s for s in present if s.name in saved])
        hub.remember()
        for s in [s for s in present if s.name in restart]:
            mark, notes = saved[s.name]
            r = s.contents(sim.NOTEBOOK)
            nb = r.json()["content"] if r.ok else {"cells": []}
            if not any(mark in "".join(c["source"]) for c in nb["cells"]):
                lost.append(f"{s.name}: the edit to {sim.NOTEBOOK}")
            r = s.contents("my_notes.txt")
            if not r.ok or r.json()["content"] != notes:
                lost.append(f"{s.name}: my_notes.txt")
            if not s.contents(teacher_file).ok:
                lost.append(f"{s.name}: the teacher's update did not arrive")
        each(lambda s: s.stop_server(), [s for s in students if s.name in restart])
    leftovers = hub.leftovers()
    # and nothing of this test's own (Playwright's driver, Chromium, git)
    for p in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if p.pid not in mine_before and p.status() != psutil.STATUS_ZOMBIE:
                leftovers.append(f"pid {p.pid}: {' '.join(p.cmdline())[:120]}")
                p.kill()

    # -- figures ---------------------------------------------------------------------
    from .simulation import summary

    rest = [s for s in students if s.name not in in_browser and s.name not in failed]
    mem = [m for u, m in memory_drawn.items() if u not in failed]
    figures.update(
        memory_drawn_mb={
            k: summary([m[k] for m in mem])
            for k in ("rss", "uss", "pss", "server_rss", "kernels_rss")
        },
        cpu_s_until_drawn=summary([m["cpu_s"] for m in mem]),
        # each move's own CPU: the student's server and kernel, from sending the widget
        # message until just after the kernel's idle (Student.move_sliders)
        cpu_ms_per_move=summary([x for s in rest for x in s.timings["cpu_ms"]]),
        server_cpu_ms_per_move=summary([x for s in rest for x in s.timings["server_cpu_ms"]]),
        # the older, coarser figure: the CPU of the whole moving phase (K moves and the
        # thinking between them), divided by K
        cpu_ms_per_move_with_waits=summary(
            [
                (memory_after[u]["cpu_s"] - memory_drawn[u]["cpu_s"]) * 1e3 / K
                for u in memory_drawn
                if u in memory_after and u not in in_browser and u not in failed and K
            ]
        ),
        memory_after_moves_mb={
            k: summary([m[k] for u, m in memory_after.items() if u not in failed])
            for k in ("rss", "uss", "pss")
        },
        processes_per_student=summary([m["processes"] for m in mem]),
        start_s=summary([t["start_s"] for t in timings.values() if "start_s" in t]),
        start_cpu_s=summary([t["start_cpu_s"] for t in timings.values() if "start_cpu_s" in t]),
        login_to_ready_s=summary([t["login_to_ready_s"] for t in timings.values()]),
        # login -> ready by student, in arrival order: who waited, when the class came
        login_to_ready_by_student={u: round(t["login_to_ready_s"], 1) for u, t in timings.items()},
        restart_s=summary(list(restart.values())),
        browser_login_page_s=summary(
            [t["login_page_s"] for t in timings.values() if "login_page_s" in t]
        ),
        browser_login_to_lab_s=summary(
            [t["login_to_lab_s"] for t in timings.values() if "login_to_lab_s" in t]
        ),
        run_notebook_s=summary(
            [t["run_notebook_s"] for t in timings.values() if "run_notebook_s" in t]
        ),
        # new numbers from the kernel (a seed): n and d_k are drawn in the page (None)
        redraw_ms=summary([x for s in rest for x in s.timings["redraw_ms"] if x is not None]),
        idle_ms=summary([x for s in rest for x in s.timings["idle_ms"]]),
        redraw_browser_ms=summary(
            [
                x
                for s in students
                if "browser" in s.timings
                for x in s.timings["browser"]["redraw_ms"]
            ]
        ),
        per_slider_ms={
            name: summary(
                [
                    t
                    for s in rest
                    for t, m in zip(s.timings["idle_ms"], s.timings["moves"], strict=True)
                    if m == name
                ]
            )
            for name in ("d_k", "seed", "n")
        },
        per_slider_cpu_ms={  # empty lists when the processes' CPU could not be read
            name: summary(
                [
                    t
                    for s in rest
                    for t, m in zip(s.timings["cpu_ms"], s.timings["moves"], strict=False)
                    if m == name
                ]
            )
            for name in ("d_k", "seed", "n")
        },
        errors=len(failed),
        failed=failed,  # student -> why: dropped, not measured from then on
        # kernel websockets that dropped and came back (sim.Kernel reconnects as
        # JupyterLab does), by student: when, why, how many tries, seconds down
        kernel_reconnects={
            s.name: s.kernel.reconnects for s in students if s.kernel and s.kernel.reconnects
        },
        lost_saves=len(lost),
        lost=lost,
        isolation_checks=len(isolation),
        isolation_refused=sum(c[2] in (403, 404) for c in isolation),
        isolation_by_check={
            what: sorted({str(c[2]) for c in isolation if c[1] == what})
            for what in dict.fromkeys(c[1] for c in isolation)
        },
        wrong_passwords_refused=f"{sum(ok for *_, ok in refused)}/{len(refused)}",
        listening=listening,
        leftover_processes=leftovers,
        load_average=load,
    )
    figures["browser_problems"] = [
        p for s in students for p in s.timings.get("browser", {}).get("problems", [])
    ]
    # JupyterLab asking which kernel to start (answered with its preferred one)
    figures["browser_kernel_choices"] = {
        s.name: s.timings["browser"].get("kernel_choices", 0)
        for s in students
        if "browser" in s.timings
    }
    figures["moves_missing"] = [
        s.name
        for s in students
        if s.name not in failed and len(s.timings.get("browser", s.timings)["redraw_ms"]) != K
    ]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for s in students:
        shot = s.timings.get("browser", {}).get("screenshot")
        if shot and Path(shot).exists():
            (ARTIFACTS / Path(shot).name).write_bytes(Path(shot).read_bytes())
    return figures


def print_figures(f: dict) -> None:
    def line(what, s, unit, scale=1.0):
        return (
            f"  {what:<44} median {s['median'] * scale:8.1f}  p95 {s['p95'] * scale:8.1f}  "
            f"max {s['max'] * scale:8.1f} {unit}  (n={s['n']})"
        )

    load = f["load_average"]
    out = [
        "",
        f"== simulated class: N={f['N']} students ({f['browsers']} in Chromium), "
        f"K={f['K']} slider moves each, think {f['think_s']} s, logins {f['arrival']} ==",
        line("memory per student, RSS (server + kernel)", f["memory_drawn_mb"]["rss"], "MB"),
        line("memory per student, USS (its own pages)", f["memory_drawn_mb"]["uss"], "MB"),
        line("memory per student, PSS (shared split)", f["memory_drawn_mb"]["pss"], "MB"),
        line("  RSS of the server alone", f["memory_drawn_mb"]["server_rss"], "MB"),
        line("  RSS of the kernel(s)", f["memory_drawn_mb"]["kernels_rss"], "MB"),
        line("  RSS after the slider moves", f["memory_after_moves_mb"]["rss"], "MB"),
        line("CPU per student until the explorer is drawn", f["cpu_s_until_drawn"], "s"),
        line("CPU per slider move (server + kernel)", f["cpu_ms_per_move"], "ms"),
        line("  of which the server", f["server_cpu_ms_per_move"], "ms"),
        line("  the same, with the waits between moves", f["cpu_ms_per_move_with_waits"], "ms"),
        line("server start (spawn page -> ready)", f["start_s"], "s"),
        line("  CPU of one server until ready", f["start_cpu_s"], "s"),
        line("login -> server ready", f["login_to_ready_s"], "s"),
        line("  in Chromium: login -> course open in Lab", f["browser_login_to_lab_s"], "s"),
        line("  in Chromium: login page opened (before)", f["browser_login_page_s"], "s"),
        line("server restart (stop, start)", f["restart_s"], "s"),
        line("run the notebook (all cells)", f["run_notebook_s"], "s"),
        line("seed move -> its numbers at the student", f["redraw_ms"], "ms"),
        line("  any move told -> kernel idle", f["idle_ms"], "ms"),
        line("  in Chromium (key -> new picture)", f["redraw_browser_ms"], "ms"),
    ]
    for name, s in f["per_slider_ms"].items():
        out.append(line(f"  told -> kernel idle, {name} moves", s, "ms"))
    for name, s in f.get("per_slider_cpu_ms", {}).items():
        out.append(line(f"  CPU per move (server + kernel), {name} moves", s, "ms"))
    out += [
        "  kernel connections dropped and reconnected: "
        + (
            "; ".join(
                f"{name} {len(events)}x ({events[0]['why'][:60]})"
                for name, events in f["kernel_reconnects"].items()
            )
            or "none"
        ),
        "  students dropped (failed, not measured after): "
        + ("; ".join(f"{u}: {why[:100]}" for u, why in f["failed"].items()) or "none"),
        f"  errors {f['errors']}, lost saves {f['lost_saves']}, isolation refused "
        f"{f['isolation_refused']}/{f['isolation_checks']}, wrong passwords refused "
        f"{f['wrong_passwords_refused']}, leftover processes {len(f['leftover_processes'])}",
        "  isolation, A's token against B's: "
        + "; ".join(f"{what} {'/'.join(codes)}" for what, codes in f["isolation_by_check"].items()),
        f"  listening: {', '.join(f['listening'])}",
        "  load average (1, 5, 15 min): "
        + "; ".join(f"{k} {v[0]:.2f} {v[1]:.2f} {v[2]:.2f}" for k, v in load.items()),
        f"  whole class phase: {f['class_wall_s']:.0f} s",
        "",
    ]
    print("\n".join(out))
