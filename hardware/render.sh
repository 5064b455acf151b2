#!/bin/sh
# The assembly guide's pictures, rendered from the models: hardware/images/*.png.
# Usage: hardware/render.sh [OUT_DIR] [NAME...]   (default: hardware/images, every picture)
# Needs OpenSCAD (apt-get install openscad) and a display; without one it runs itself
# under xvfb-run (apt-get install xvfb xauth).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/images}
[ $# -gt 0 ] && shift
if [ -z "${DISPLAY:-}" ] && [ -z "${RENDER_SH_XVFB:-}" ]; then
    command -v xvfb-run >/dev/null 2>&1 || { echo "render.sh: no display and no xvfb-run (apt-get install xvfb xauth)" >&2; exit 1; }
    RENDER_SH_XVFB=1 exec xvfb-run -a -s "-screen 0 1280x1024x24" "$0" "$out" "$@"
fi
mkdir -p "$out"

# name | model | part | camera (translate x,y,z, rotate x,y,z, distance)
pictures='
exploded|seesaw.scad|exploded|0,10,30,60,0,30,520
assembly|seesaw.scad|assembly|0,10,20,55,0,25,430
base|seesaw.scad|base|0,0,0,50,0,20,400
cell_mount|seesaw.scad|cell_mount|50,-20,16,70,0,20,200
carrier|seesaw.scad|carrier|45,6,5,45,0,30,200
pan|seesaw.scad|pan|0,0,0,45,0,20,180
cover|seesaw.scad|cover|0,0,10,45,0,20,330
piece_section|piece.scad|section|0,15,6,60,0,60,100
cap_on_piece|piece.scad|cap_on_piece|0,15,12,70,0,15,110
'

echo "$pictures" | while IFS='|' read -r name model part camera; do
    [ -n "$name" ] || continue
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    openscad -q -o "$out/$name.png" -D "part=\"$part\"" --camera="$camera" --imgsize=800,600 \
        --colorscheme=Tomorrow --projection=p "$here/$model"
    echo "render.sh: $out/$name.png"
done
