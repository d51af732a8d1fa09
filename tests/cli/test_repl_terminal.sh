# The REPL on a real terminal, driven through tmux (send-keys, capture-pane):
# tab completion of a command and of model names, history recall with the
# up arrow (and the history file), Ctrl-C on a half-typed line and during
# `:sim 1e6` (the simulation stops, the session stays), Ctrl-D to leave.
source "$(dirname "$0")/lib.sh" "$@"

if ! command -v tmux >/dev/null; then
  echo "FAIL: tmux is not installed (scripts/install-deps.sh installs it)"
  exit 1
fi
mkdir -p "$work/run" "$work/home"
ln -s "$root/examples" "$work/run/examples"
socket="mech-test-$$"
tmux_() { tmux -L "$socket" "$@"; }
trap 'tmux_ kill-server 2>/dev/null; rm -rf "$work"' EXIT

# The tmux session that screen and wait_for read.
session=repl
screen() { tmux_ capture-pane -t "$session" -p -S -500; }
# wait_for NAME TEXT [COUNT]: the screen shows TEXT (at least COUNT times).
wait_for() {
  local count="${3:-1}"
  # Up to 30 s: a sanitizer build under load starts slowly.
  for _ in $(seq 300); do
    if [ "$(screen | grep -cF -- "$2")" -ge "$count" ]; then
      passed=$((passed + 1))
      return 0
    fi
    sleep 0.1
  done
  failed=$((failed + 1))
  echo "FAIL: $1: '$2' not on the screen"
  screen | tail -15 | sed 's/^/  | /'
  return 1
}

tmux_ new-session -d -s repl -x 160 -y 50 \
  "cd '$work/run' && HOME='$work/home' XDG_CACHE_HOME='$work/cache' '$mech' repl examples/double_pendulum.mech"
wait_for "prompt" "mech>" # capture-pane drops trailing spaces

# A value, then the same input recalled with the up arrow.
tmux_ send-keys -t repl 'eval(V)' Enter
wait_for "eval(V)" "-24.71565063094687"
tmux_ send-keys -t repl Up Enter
wait_for "history recall" "-24.71565063094687" 2

# Tab completes a command, and lists the names that share a prefix.
tmux_ send-keys -t repl ':equ' Tab
wait_for "command completed" "mech> :equilibria"
tmux_ send-keys -t repl Enter
wait_for "completed command ran" "4 equilibria"
tmux_ send-keys -t repl 'eval(th' Tab
wait_for "names listed" "th1  th2"
tmux_ send-keys -t repl '1)' Enter
wait_for "completion then input" "0.5"

# Ctrl-C drops a half-typed line; the next input runs alone.
tmux_ send-keys -t repl '1 + unknown_name' C-c
tmux_ send-keys -t repl '2 + 2' Enter
wait_for "after Ctrl-C on a line" "4"
if screen | grep -q "unknown name 'unknown_name'"; then
  failed=$((failed + 1))
  echo "FAIL: the cancelled line was run"
else
  passed=$((passed + 1))
fi

# Ctrl-C stops a long simulation; the session answers afterwards.
tmux_ send-keys -t repl ':sim 1e6' Enter
sleep 1
tmux_ send-keys -t repl C-c
wait_for "simulation interrupted" "error: interrupted at t ="
tmux_ send-keys -t repl 'eval(V + 1)' Enter
wait_for "session goes on" "-23.71565063094687"

# Ctrl-C stops any evaluation too: the 60th derivative of exp(sin(x)*x^2)
# runs for seconds before its size stops it (it used to pass 2 GB and
# ignore Ctrl-C); the session and its model stay.
tmux_ send-keys -t repl 'diff(diff(diff(exp(sin(x)*x^2), x, 20), x, 20), x, 20)' Enter
sleep 0.5
tmux_ send-keys -t repl C-c
wait_for "evaluation interrupted" "error: interrupted: the evaluation was stopped"
tmux_ send-keys -t repl 'eval(V + 2)' Enter
wait_for "session goes on after the evaluation" "-22.71565063094687"

# Ctrl-D leaves; the history file keeps the inputs (libedit writes a space
# as \040).
tmux_ send-keys -t repl C-d
for _ in $(seq 300); do tmux_ has-session -t repl 2>/dev/null || break; sleep 0.1; done
if tmux_ has-session -t repl 2>/dev/null; then
  failed=$((failed + 1))
  echo "FAIL: Ctrl-D did not end the session"
else
  passed=$((passed + 1))
fi
if grep -qF 'eval(V\040+\0401)' "$work/home/.mech_history"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: no history file with the inputs"
fi

# UTF-8 typed on a terminal reaches the session (θ1 used to arrive as 1),
# and a FIFO in place of the history file does not block the first prompt:
# the history is not kept, with a warning.
mkdir -p "$work/home2"
mkfifo "$work/home2/.mech_history"
LANG=C.UTF-8 tmux_ -u new-session -d -s utf -x 160 -y 50 \
  "cd '$work/run' && LANG=C.UTF-8 HOME='$work/home2' XDG_CACHE_HOME='$work/cache' '$mech' repl"
session=utf
wait_for "a FIFO as history: the prompt comes" "mech>"
wait_for "a FIFO as history: the warning" "is not a regular file"
tmux_ send-keys -t utf -l 'θ1 = 3'
tmux_ send-keys -t utf Enter
wait_for "θ1 typed" "θ1 = 3"
tmux_ send-keys -t utf -l 'ξ = θ1^2 + 1'
tmux_ send-keys -t utf Enter
wait_for "ξ = θ1^2 + 1 with θ1 = 3" "ξ = 10"
tmux_ send-keys -t utf C-d
finish
