#!/bin/sh
# Install chunkview's desktop entry, AppStream metainfo and icons for the current user
# (XDG folders), so desktops list it with its icon. Run from the repository after
# `pip install .` (or with CHUNKVIEW_EXEC set to a bundle's dist/chunkview/chunkview).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
icons="$here/../chunkview/resources/icons"
data=${XDG_DATA_HOME:-$HOME/.local/share}
for size in 16 24 32 48 64 128 256 512; do
  install -D -m 644 "$icons/chunkview-$size.png" "$data/icons/hicolor/${size}x${size}/apps/chunkview.png"
done
install -D -m 644 "$icons/chunkview.svg" "$data/icons/hicolor/scalable/apps/chunkview.svg"
install -D -m 644 "$here/io.github.chunkview.metainfo.xml" "$data/metainfo/io.github.chunkview.metainfo.xml"
mkdir -p "$data/applications"
sed "s|^Exec=chunkview|Exec=${CHUNKVIEW_EXEC:-chunkview}|" "$here/chunkview.desktop" \
  > "$data/applications/chunkview.desktop.tmp"
mv "$data/applications/chunkview.desktop.tmp" "$data/applications/chunkview.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
echo "installed chunkview.desktop and its icons under $data"
