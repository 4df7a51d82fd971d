"""The box that show_error draws (attnlib.demo). The error's own message is attnlib's
(errors.py holds its Chinese) or, for an error of Python or numpy, their English."""

MESSAGES = {
    "no error: {call} returned {result!r:.200}": "没有报错：{call} 返回了 {result!r:.200}",
    "{call} ran without an error": "{call} 运行时没有报错",
    "{call} raised {error}": "{call} 抛出了 {error}",
}
