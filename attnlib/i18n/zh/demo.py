"""The box that show_error draws (attnlib.demo). The error's own message stays English:
it is what a traceback would say, and what a learner would search for."""

MESSAGES = {
    "no error: {call} returned {result!r:.200}": "没有报错：{call} 返回了 {result!r:.200}",
    "{call} ran without an error": "{call} 运行时没有报错",
    "{call} raised {error}": "{call} 抛出了 {error}",
}
