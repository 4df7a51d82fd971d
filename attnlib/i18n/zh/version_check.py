"""The version check (attnlib.version_check): what a learner reads when the course
needs a newer attnlib than the one installed, with what the teacher does on each
route. The menus are named as JupyterLab's Chinese interface names them (文件 > Hub
控制面板, 内核 > 重启内核); JupyterHub's own page is in English, so its buttons keep
their English names."""

MESSAGES = {
    "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
    "ask your teacher to rebuild the course image (deploy/jupyterhub/build-image.sh, "
    "then its new tag in the hub's values); your server gets it at its next start "
    "(File > Hub Control Panel: Stop My Server, then Start My Server).": (
        "这个笔记本需要 attnlib {needed} 或更新的版本，而这台服务器上装的是 {installed}："
        "请老师重新构建课程镜像（运行 deploy/jupyterhub/build-image.sh，"
        "再把新标签填进 JupyterHub 的 values 文件）。你的服务器下次启动时就会用上新镜像"
        "（文件 > Hub 控制面板：先点 Stop My Server，再点 Start My Server）。"
    ),
    "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
    "ask your teacher to install the course's attnlib on the hub (the release's tag "
    "in deploy/tljh/requirements.txt, then that file's pip install line), then "
    "restart the kernel (Kernel > Restart Kernel).": (
        "这个笔记本需要 attnlib {needed} 或更新的版本，而这台服务器上装的是 {installed}："
        "请老师在 JupyterHub 上装好与课程相符的 attnlib（把新版本的标签写进 "
        "deploy/tljh/requirements.txt，再运行该文件开头那行 pip install 命令），"
        "然后重启内核（内核 > 重启内核）。"
    ),
    "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
    "ask your teacher to update the hub's copy of the course (git pull in it, then "
    "the pip install line of deploy/jupyterhub/requirements.txt), then restart the "
    "kernel (Kernel > Restart Kernel).": (
        "这个笔记本需要 attnlib {needed} 或更新的版本，而这台服务器上装的是 {installed}："
        "请老师更新 JupyterHub 那台机器上的课程仓库（在仓库里运行 git pull，"
        "再运行 deploy/jupyterhub/requirements.txt 开头那行 pip install 命令），"
        "然后重启内核（内核 > 重启内核）。"
    ),
    "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
    "ask your teacher to install the course's attnlib on this server (on your own "
    "computer: `git pull`, then `make lab` in the course folder).": (
        "这个笔记本需要 attnlib {needed} 或更新的版本，而这台服务器上装的是 {installed}："
        "请老师在这台服务器上装好与课程相符的 attnlib（在自己的电脑上：先运行 `git pull`，"
        "再在课程文件夹里运行 `make lab EDITION=zh`）。"
    ),
}
