#!/usr/bin/env bash
# Fetches the vendored front-end libraries from the npm registry into static/vendor/.
# The files are committed: the site must work offline and without a CDN. Run by hand to upgrade.
set -euo pipefail
cd "$(dirname "$0")/.."
BOOTSTRAP=5.3.8
ICONS=1.13.2
CHARTJS=4.6.1
AXE=4.14.1  # axe-core: only the browser tests load it (tests/browser/test_accessibility.py)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch() {  # package@version -> extracted into $tmp/<name>/package
  local spec=$1 name=${1%@*}
  mkdir -p "$tmp/$name"
  (cd "$tmp/$name" && npm pack --silent "$spec" >/dev/null && tar xzf ./*.tgz)
}
fetch bootstrap@$BOOTSTRAP
fetch bootstrap-icons@$ICONS
fetch chart.js@$CHARTJS
fetch axe-core@$AXE

rm -rf static/vendor && mkdir -p static/vendor/bootstrap static/vendor/bootstrap-icons/fonts static/vendor/chart.js \
  static/vendor/axe-core
b=$tmp/bootstrap/package
cp $b/dist/css/bootstrap.min.css $b/dist/css/bootstrap.min.css.map \
   $b/dist/js/bootstrap.bundle.min.js $b/dist/js/bootstrap.bundle.min.js.map $b/LICENSE static/vendor/bootstrap/
i=$tmp/bootstrap-icons/package
cp $i/font/bootstrap-icons.min.css $i/LICENSE static/vendor/bootstrap-icons/
cp $i/font/fonts/bootstrap-icons.woff2 $i/font/fonts/bootstrap-icons.woff static/vendor/bootstrap-icons/fonts/
c=$tmp/chart.js/package
cp $c/dist/chart.umd.min.js $c/LICENSE.md static/vendor/chart.js/
[ -f $c/dist/chart.umd.min.js.map ] && cp $c/dist/chart.umd.min.js.map static/vendor/chart.js/ || true
a=$tmp/axe-core/package
cp $a/axe.min.js $a/LICENSE $a/LICENSE-3RD-PARTY.txt static/vendor/axe-core/
cat > static/vendor/VERSIONS.txt <<TXT
Fetched by scripts/vendor_static.sh from the npm registry (npm pack):
bootstrap@$BOOTSTRAP        dist/css/bootstrap.min.css(.map), dist/js/bootstrap.bundle.min.js(.map), LICENSE
bootstrap-icons@$ICONS  font/bootstrap-icons.min.css, font/fonts/bootstrap-icons.woff2/.woff, LICENSE
chart.js@$CHARTJS          dist/chart.umd.min.js(.map), LICENSE.md
axe-core@$AXE         axe.min.js, LICENSE, LICENSE-3RD-PARTY.txt (browser tests only: tests/browser/test_accessibility.py)
TXT
echo "vendored into static/vendor/"
