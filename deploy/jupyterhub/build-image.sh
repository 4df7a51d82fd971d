#!/bin/bash
# Build the students' image for Kubernetes from this repository (binder/) and push it.
#   deploy/jupyterhub/build-image.sh registry.example.edu/teaching/attnlib-course 2026-12-01
# then set singleuser.image.name and .tag in z2jh-values.local.yaml to the same two values.
#
# The image is built from the commit checked out here, and says which: its label
# org.opencontainers.image.revision is that commit (docker inspect shows it), and
# org.opencontainers.image.version attnlib's version. So the build refuses a working
# tree with changes not committed (or files git does not know of, which would go into
# the image too): the label would name a commit the image does not hold.
#   --allow-dirty   build from the working tree as it is, uncommitted changes included;
#                   the revision label then reads COMMIT-dirty, so the image still
#                   does not pass for that commit.
#
# The build runs notebook 00 (English and Chinese) inside the image (binder/postBuild,
# binder/smoke_test.py): an image whose first lesson raises stops the build and is
# never pushed.
#
# --target-repo-dir puts the repository (and so the image's working directory) in
# /srv/attnlib instead of the home folder, which each student's volume covers on
# Kubernetes. The students' servers do not start there: z2jh-values.yaml sets their
# root to /home/jovyan (hub.config.KubeSpawner.notebook_dir), the volume.
set -euo pipefail
usage="usage: build-image.sh [--allow-dirty] IMAGE_NAME TAG"
allow_dirty=false
if [ "${1:-}" = --allow-dirty ]; then
    allow_dirty=true
    shift
fi
if [ $# -ne 2 ] || [ -z "$1" ] || [ -z "$2" ] || [ "${1#-}" != "$1" ]; then
    echo "$usage" >&2
    exit 2
fi
image=$1
tag=$2
cd "$(dirname "$0")/../.."

for tool in git jupyter-repo2docker docker; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build-image.sh: $tool not found (deploy/jupyterhub/README.md, Kubernetes step 1)" >&2
        exit 1
    fi
done
if ! revision=$(git rev-parse --verify --quiet HEAD); then
    echo "build-image.sh: $(pwd) is not a git checkout with a commit: the image's revision label needs one" >&2
    exit 1
fi
changes=$(git status --porcelain)
if [ -n "$changes" ]; then
    if [ "$allow_dirty" = true ]; then
        echo "build-image.sh: --allow-dirty: building with changes not in $revision (label $revision-dirty):"
        echo "$changes"
        revision=$revision-dirty
    else
        {
            echo "build-image.sh: the working tree differs from commit $revision; the image would carry"
            echo "changes that no commit holds, under a label naming that commit:"
            echo "$changes"
            echo "Commit them (or git stash -u), or pass --allow-dirty to build from the working tree"
            echo "as it is (its revision label then reads $revision-dirty)."
        } >&2
        exit 1
    fi
fi
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml)

jupyter-repo2docker --no-run --user-id 1000 --user-name jovyan \
    --target-repo-dir /srv/attnlib \
    --label "org.opencontainers.image.revision=$revision" \
    --label "org.opencontainers.image.version=$version" \
    --image-name "$image:$tag" .

# The label as the image holds it: a repo2docker that dropped --label would leave the
# image unnamed.
label=$(docker inspect --format '{{ index .Config.Labels "org.opencontainers.image.revision" }}' "$image:$tag")
if [ "$label" != "$revision" ]; then
    echo "build-image.sh: the image's revision label is '$label', expected '$revision': not pushed" >&2
    exit 1
fi
docker run --rm "$image:$tag" python -m attnlib.version_check # the version it carries
docker push "$image:$tag"
echo "pushed $image:$tag (revision $revision, attnlib $version)"
