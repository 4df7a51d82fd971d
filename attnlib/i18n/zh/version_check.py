"""The version check (attnlib.version_check): what a learner reads when the course
needs a newer attnlib than the one installed."""

MESSAGES = {
    "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
    "ask your teacher to rebuild the course image (on your own computer: "
    "`git pull`, then `make lab` in the course folder).": (
        "这个笔记本需要 attnlib {needed} 或更新的版本，而这台服务器上装的是 {installed}："
        "请老师重新构建课程镜像（在自己的电脑上：先运行 `git pull`，"
        "再在课程文件夹里运行 `make lab EDITION=zh`）。"
    ),
}
