"""The box that show_error draws (attnlib.demo). The error's own message is attnlib's
(errors.py holds its Chinese) or, for an error of Python or numpy, their English."""

MESSAGES = {
    "no error: {call} returned {result!r:.200}": "没有报错：{call} 返回了 {result!r:.200}",
    "{call} ran without an error": "{call} 运行时没有报错",
    "{call} raised {error}": "{call} 抛出了 {error}",
}

# attnlib.answer(): an answer shown closed until the learner opens it (lessons/answers.py)
MESSAGES |= {
    "Answer: open it after your attempt": "答案：先自己作答，再点开",
    "summary must be text (a str), the line shown while the answer is closed; got {kind}": (
        "summary 必须是文本（str），即答案收起时显示的那一行；收到的是 {kind}"
    ),
}
