/* run_events.c: PREFIX_simulate_with with the event records as a command:
 *   run_events T_END DT RTOL ATOL EVENTS.csv [NAME=VALUE ...]
 * From the model's init state at t = 0, with the default params but those
 * given (SI values by name). The environment's METHOD=radau chooses Radau
 * IIA. Prints the rows (t, q, q', lambda, the contact and friction forces,
 * the outputs) as CSV (%.17g) without a header, and writes the events to
 * EVENTS.csv as `mech simulate --events` names them (the event, the
 * contact for an impact, "NAME rests", "NAME lifts off"): name, t, then
 * the state before it, the state after it, the impulse and the energy
 * lost. Exits 1 on a status other than OK (printing it) or more events
 * than it stored. */
#include "prefix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *event_name(const INFO *info, const F(event_record) * e, char *buffer) {
  if (e->kind == S(EVENT))
    return info->event_names[e->index];
  if (e->kind == S(EVENT_STICK) || e->kind == S(EVENT_SLIP)) {
    snprintf(buffer, 256, "%s %s", info->friction_names[e->index],
             e->kind == S(EVENT_STICK) ? "sticks" : "slips");
    return buffer;
  }
  const char *contact = info->contact_names[e->index];
  const char *suffix = e->kind == S(EVENT_REST)       ? " rests"
                       : e->kind == S(EVENT_LIFT_OFF) ? " lifts off"
                                                      : "";
  snprintf(buffer, 256, "%s%s", contact, suffix);
  return buffer;
}

static int set_params(const INFO *info, double *p, int count, char **assignments) {
  for (int a = 0; a < count; ++a) {
    char *equals = strchr(assignments[a], '=');
    int found = 0;
    for (int i = 0; equals && i < info->np; ++i)
      if ((size_t)(equals - assignments[a]) == strlen(info->param_names[i]) &&
          !strncmp(assignments[a], info->param_names[i], strlen(info->param_names[i]))) {
        p[i] = atof(equals + 1);
        found = 1;
      }
    if (!found) {
      fprintf(stderr, "run_events: no param '%s'\n", assignments[a]);
      return 0;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  const INFO *info = F(model)();
  const int nq = info->nq, N = 2 * nq;
  if (argc < 6) {
    fprintf(stderr, "usage: run_events T_END DT RTOL ATOL EVENTS.csv [NAME=VALUE ...]\n");
    return 2;
  }
  double *p = malloc((info->np + 1) * sizeof *p);
  memcpy(p, info->param_defaults, info->np * sizeof *p);
  if (!set_params(info, p, argc - 6, argv + 6))
    return 2;
  enum { kMaxEvents = 100000 };
  static F(event_record) events[kMaxEvents];
  double *states = malloc((size_t)kMaxEvents * 2 * N * sizeof *states);
  size_t found = 0, rows = 0;
  F(sim_options) options = S(SIM_OPTIONS_INIT);
  const char *method = getenv("METHOD");
  options.method = method && !strcmp(method, "radau") ? S(METHOD_RADAU) : S(METHOD_DOPRI5);
  options.multipliers = options.outputs = 1;
  options.events = events;
  options.max_events = kMaxEvents;
  options.events_found = &found;
  options.event_states = states;
  const int width = 1 + N + info->nc + info->ncontacts + info->nfrictions + info->nout;
  double t_end = atof(argv[1]), dt = atof(argv[2]), rtol = atof(argv[3]), atol = atof(argv[4]);
  F(simulate_with)(info->init_state, p, t_end, dt, rtol, atol, &options, NULL, 0, &rows);
  double *out = malloc(rows * width * sizeof *out);
  int status =
      F(simulate_with)(info->init_state, p, t_end, dt, rtol, atol, &options, out, rows, &rows);
  for (size_t r = 0; r < rows; ++r)
    for (int i = 0; i < width; ++i)
      printf("%.17g%c", out[r * width + i], i + 1 < width ? ',' : '\n');
  FILE *file = fopen(argv[5], "w");
  for (size_t e = 0; file && e < found && e < kMaxEvents; ++e) {
    char buffer[256];
    fprintf(file, "%s,%.17g", event_name(info, &events[e], buffer), events[e].t);
    for (int i = 0; i < 2 * N; ++i)
      fprintf(file, ",%.17g", states[e * 2 * N + i]);
    fprintf(file, ",%.17g,%.17g\n", events[e].impulse, events[e].energy_lost);
  }
  if (file)
    fclose(file);
  if (status != S(OK)) {
    fprintf(stderr, "run_events: status %d after %zu rows\n", status, rows);
    return 1;
  }
  return found <= kMaxEvents ? 0 : 1;
}
