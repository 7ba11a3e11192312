#!/usr/bin/env bash
# Every C++ file of the tree follows .clang-format: clang-format --dry-run --Werror on each file
# git knows (tracked, and new ones it does not ignore; in an unpacked archive, every file outside
# build folders) ending in .cpp, .hpp, .h or .hpp.in.
#   bash scripts/check_format.sh       from anywhere in the tree; no build needed
# Lists each file that differs (clang-format's own lines show where) and exits 1; exits 2 when
# clang-format or git is missing. To fix a file: clang-format -i FILE. scripts/setup.sh installs
# Debian 12's clang-format (14); another version may format some lines otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in clang-format $([ -e .git ] && echo git); do
  if ! command -v "$tool" >/dev/null; then
    echo "check_format: $tool not found: install it (scripts/setup.sh does)" >&2
    exit 2
  fi
done
if [ ! -e .git ]; then
  # An unpacked archive: every C++ file outside build and hidden folders.
  listing=$(find . \( -name 'build*' -o -name '.?*' \) -prune -o -type f \
              \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.hpp.in' \) -print |
            sed 's|^\./||' | sort)
elif ! listing=$(git ls-files --cached --others --exclude-standard \
                   '*.cpp' '*.hpp' '*.h' '*.hpp.in'); then
  # Never pass on an empty list: a git that fails (a refused owner, ...) stops the check.
  echo "check_format: git ls-files failed in $(pwd)" >&2
  exit 2
fi
mapfile -t files <<<"$listing"
present=()
for f in "${files[@]}"; do
  [ -f "$f" ] && present+=("$f")  # a file deleted in the working tree, not yet in git: skipped
done
checked=${#present[@]}
failed=()
if ((checked > 0)); then
  # One clang-format for every file (one per file took half a minute on a loaded machine); an
  # .hpp.in, C++ with @VARIABLES@, goes through stdin named as its header so that it is read as
  # C++.
  plain=() generated=()
  for f in "${present[@]}"; do
    if [[ $f == *.in ]]; then generated+=("$f"); else plain+=("$f"); fi
  done
  status=0
  report=$( ((${#plain[@]} == 0)) || clang-format --dry-run --Werror "${plain[@]}" 2>&1) ||
    status=$?
  for f in "${generated[@]}"; do
    more=$(clang-format --dry-run --Werror --assume-filename="${f%.in}" <"$f" 2>&1) || status=1
    # clang-format names the file it was told to assume: name the template instead.
    more=${more//<stdin>:/$f:}
    [ -n "$more" ] && report+=$'\n'"${more//${f%.in}:/$f:}"
  done
  mapfile -t failed < <(printf '%s\n' "$report" |
                        sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error:.*/\1/p' | sort -u)
  if ((status != 0 && ${#failed[@]} == 0)); then
    printf '%s\n' "$report" >&2
    echo "check_format: clang-format failed without naming a file" >&2
    exit 2
  fi
  ((${#failed[@]} == 0)) || printf '%s\n' "$report" | head -60 >&2
fi
if ((checked == 0)); then
  echo "check_format: no C++ file found in $(pwd)" >&2
  exit 2
fi
if ((${#failed[@]})); then
  echo "check_format: ${#failed[@]} of $checked files do not follow .clang-format" \
       "(clang-format -i FILE fixes one):" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "check_format: $checked C++ files follow .clang-format ($(clang-format --version))"
