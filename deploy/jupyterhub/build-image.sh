#!/bin/bash
# Build the students' image for Kubernetes from this repository (binder/) and push it.
#   deploy/jupyterhub/build-image.sh registry.example.edu/teaching/attnlib-course 2026-12-01
# then set singleuser.image.name and .tag in z2jh-values.yaml to the same two values.
#
# --target-repo-dir puts the repository (and so the image's working directory) in
# /srv/attnlib instead of the home folder, which each student's volume covers on
# Kubernetes. The students' servers do not start there: z2jh-values.yaml sets their
# root to /home/jovyan (hub.config.KubeSpawner.notebook_dir), the volume.
set -euo pipefail
image=${1:?usage: build-image.sh IMAGE_NAME TAG}
tag=${2:?usage: build-image.sh IMAGE_NAME TAG}
cd "$(dirname "$0")/../.."
jupyter-repo2docker --no-run --user-id 1000 --user-name jovyan \
    --target-repo-dir /srv/attnlib \
    --image-name "$image:$tag" .
docker run --rm "$image:$tag" python -m attnlib.version_check  # the version it carries
docker push "$image:$tag"
