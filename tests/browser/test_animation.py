"""The pages of `mech animate` in a real browser (headless Chromium driven by
Selenium): the scrubber is moved to chosen samples and the positions the
page draws are read from the DOM and compared, at the page's stated pixels
per metre, with the positions written out by hand from `mech simulate`'s
CSV at those times (to within 1 px); play and pause are exercised; the page
makes no network request. Three models: the double pendulum (2-D, rods), a
pendulum in Cartesian coordinates held by a constraint, and a spherical
pendulum in 3-D (orthographic view).

usage: test_animation.py MECH_BINARY SOURCE_ROOT
Exit 77 (skipped) when Selenium, Chromium or chromedriver is missing."""
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    print("skipped: Selenium is not installed (python3-selenium)")
    sys.exit(77)

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    print("skipped: Chromium or chromedriver is not installed (chromium, chromium-driver)")
    sys.exit(77)

mech, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = tempfile.mkdtemp(prefix="mech-browser-")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def run(*args):
    subprocess.run([mech, *args], check=True, cwd=work, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE)


def rows(path):
    with open(os.path.join(work, path)) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=800,900"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def scrub_to(driver, frame):
    """Moves the scrubber as a user's drag would: sets its value and sends
    the input event the page listens to."""
    driver.execute_script(
        "const s = document.getElementById('scrubber'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input', {bubbles: true}));", frame)


def drawn(driver, name):
    e = driver.find_element(By.CSS_SELECTOR, "circle[data-point='%s']" % name)
    return float(e.get_attribute("cx")), float(e.get_attribute("cy"))


def scene_frame(driver):
    svg = driver.find_element(By.ID, "scene")
    return {k: svg.get_attribute("data-" + k) for k in
            ["px-per-m", "origin-x", "origin-y", "centre", "frame", "t"]}


def network_requests(driver):
    """URLs the page asked for, from the browser's performance log, other
    than the page itself."""
    import json
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return [u for u in urls if not u.startswith("file://")]


def check_planar(driver, page, csv_rows, positions, frames, label):
    driver.get("file://" + os.path.join(work, page))
    for frame in frames:
        scrub_to(driver, frame)
        s = scene_frame(driver)
        scale, ox, oy = float(s["px-per-m"]), float(s["origin-x"]), float(s["origin-y"])
        row = csv_rows[frame]
        check(int(s["frame"]) == frame and abs(float(s["t"]) - row["t"]) < 1e-9,
              "%s: frame %d shows t = %s" % (label, frame, s["t"]))
        readout = driver.find_element(By.ID, "time").text
        check(readout == "t = %.3f s" % row["t"], "%s: readout %r" % (label, readout))
        for name, (x, y) in positions(row).items():
            cx, cy = drawn(driver, name)
            error = math.hypot(cx - (ox + scale * x), cy - (oy - scale * y))
            check(error <= 1.0, "%s: %s at t = %g is %.2f px off" % (label, name, row["t"], error))


def main():
    driver = browser()
    try:
        # The double pendulum: p1 = l1 (sin th1, -cos th1), p2 = p1 + l2 (sin th2, -cos th2).
        dp = os.path.join(root, "examples/double_pendulum.mech")
        run("animate", dp, "-o", "dp.html", "--until", "10", "--trace", "p2")
        run("simulate", dp, "--until", "10", "-o", "dp.csv")
        dp_rows = rows("dp.csv")

        def pendulum(r):
            x1, y1 = math.sin(r["th1"]), -math.cos(r["th1"])
            return {"p1": (x1, y1),
                    "p2": (x1 + 0.8 * math.sin(r["th2"]), y1 - 0.8 * math.cos(r["th2"]))}
        check_planar(driver, "dp.html", dp_rows, pendulum, [0, 1, 250, 537, 999, 1000],
                     "double pendulum")
        # The trail of p2 reaches the frame shown.
        trail = driver.find_element(By.CSS_SELECTOR, "polyline[data-trace='p2']")
        check(len(trail.get_attribute("points").split()) == 1001, "the trail of p2")

        # Play, then pause: the frame advances while playing, then stays.
        scrub_to(driver, 0)
        play = driver.find_element(By.ID, "play")
        play.click()
        time.sleep(1.0)
        playing = int(scene_frame(driver)["frame"])
        check(play.text == "Pause" and playing > 20, "playing advanced to frame %d" % playing)
        play.click()
        paused = int(scene_frame(driver)["frame"])
        time.sleep(0.5)
        check(play.text == "Play" and int(scene_frame(driver)["frame"]) == paused,
              "pause holds the frame")
        # Twice the speed runs about twice as far in the same time.
        driver.execute_script("const s = document.getElementById('speed'); s.value = '4';"
                              "s.dispatchEvent(new Event('change'));")
        scrub_to(driver, 0)
        play.click()
        time.sleep(1.0)
        play.click()
        fast = int(scene_frame(driver)["frame"])
        check(fast > 2.5 * playing, "speed 4 ran to frame %d against %d" % (fast, playing))
        check(network_requests(driver) == [], "no network request")

        # A pendulum in x, y held by a constraint (a multiplier in the CSV).
        cp = os.path.join(root, "examples/cartesian_pendulum.mech")
        run("animate", cp, "-o", "cp.html", "--until", "3")
        run("simulate", cp, "--until", "3", "-o", "cp.csv")
        check_planar(driver, "cp.html", rows("cp.csv"), lambda r: {"bob": (r["x"], r["y"])},
                     [0, 77, 300], "Cartesian pendulum")
        check(network_requests(driver) == [], "no network request (constrained)")

        # 3-D: a spherical pendulum seen from yaw 30, pitch 20 (degrees):
        # screen x = cos(yaw) x + sin(yaw) y, screen up = cos(pitch) z -
        # sin(pitch) (-sin(yaw) x + cos(yaw) y), about the page's centre.
        sp = os.path.join(root, "examples/spherical_pendulum.mech")
        run("animate", sp, "-o", "sp.html", "--until", "5", "--view", "30,20")
        run("simulate", sp, "--until", "5", "-o", "sp.csv")
        sp_rows = rows("sp.csv")
        driver.get("file://" + os.path.join(work, "sp.html"))
        yaw, pitch = math.radians(30), math.radians(20)

        def screen(p):
            x1 = math.cos(yaw) * p[0] + math.sin(yaw) * p[1]
            y1 = -math.sin(yaw) * p[0] + math.cos(yaw) * p[1]
            return x1, math.cos(pitch) * p[2] - math.sin(pitch) * y1
        pixels = []
        for frame in [0, 123, 400]:
            scrub_to(driver, frame)
            s = scene_frame(driver)
            r = sp_rows[frame]
            bob = (math.sin(r["th"]) * math.cos(r["phi"]), math.sin(r["th"]) * math.sin(r["phi"]),
                   -math.cos(r["th"]))
            centre = [float(v) for v in s["centre"].split(",")]
            scale = float(s["px-per-m"])
            u, v = screen([bob[i] - centre[i] for i in range(3)])
            pixels.append(drawn(driver, "bob"))
            # The page's own screen origin: the projected centre is the middle.
            cx, cy = drawn(driver, "bob")
            check(abs((cx - 320) - scale * u) <= 1.0 and abs((240 - cy) - scale * v) <= 1.0,
                  "3-D bob at frame %d: (%.1f, %.1f) against (%.1f, %.1f)" %
                  (frame, cx, cy, 320 + scale * u, 240 - scale * v))
        # Dragging turns the view: the bob moves on the screen.
        svg = driver.find_element(By.ID, "scene")
        before = drawn(driver, "bob")
        webdriver.ActionChains(driver).move_to_element(svg).click_and_hold() \
            .move_by_offset(80, 0).release().perform()
        check(drawn(driver, "bob") != before and svg.get_attribute("data-view"),
              "dragging turns the 3-D view")
        check(network_requests(driver) == [], "no network request (3-D)")
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
