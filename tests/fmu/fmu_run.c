/* fmu_run: a small FMI 2.0 importer for the tests of `mech build --fmu`.
 *
 *   fmu_run DIR (me|cs) STOP STEP [name=value ...]
 *
 * DIR is an unzipped FMU. The importer is written from the FMI 2.0
 * standard alone (its types and function list declared here, not taken
 * from a header), so that it checks the FMU against the standard rather
 * than against the code that made it: it reads modelDescription.xml by
 * plain string search, loads binaries/linux64/ID.so, follows the
 * standard's calling sequence, and prints a CSV (t, the continuous
 * states, the outputs) at t = 0, STEP, 2 STEP, ..., STOP. `cs` steps with
 * fmi2DoStep; `me` integrates with its own fixed-step RK4 (STEP/10),
 * locates state events by bisection and runs the event iteration. Both
 * also save, serialize, restore and compare an FMU state once.
 *
 * Exit status: 0 success, 1 an error of the FMU (the call and its status
 * are printed), 2 a usage error. */
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The FMI 2.0 types (the standard's fmi2TypesPlatform.h and
 * fmi2FunctionTypes.h, declared from their specification). ---- */
typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
#define fmi2True 1
#define fmi2False 0

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum {
  fmi2DoStepStatus,
  fmi2PendingStatus,
  fmi2LastSuccessfulTime,
  fmi2Terminated
} fmi2StatusKind;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String instanceName, fmi2Status,
                                   fmi2String category, fmi2String message, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t, size_t);
typedef void (*fmi2CallbackFreeMemory)(void *);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment, fmi2Status);

typedef struct {
  fmi2CallbackLogger logger;
  fmi2CallbackAllocateMemory allocateMemory;
  fmi2CallbackFreeMemory freeMemory;
  fmi2StepFinished stepFinished;
  fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

typedef const char *(*fmi2GetTypesPlatformTYPE)(void);
typedef const char *(*fmi2GetVersionTYPE)(void);
typedef fmi2Component (*fmi2InstantiateTYPE)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                             const fmi2CallbackFunctions *, fmi2Boolean,
                                             fmi2Boolean);
typedef void (*fmi2FreeInstanceTYPE)(fmi2Component);
typedef fmi2Status (*fmi2SetupExperimentTYPE)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real,
                                              fmi2Boolean, fmi2Real);
typedef fmi2Status (*fmi2ComponentTYPE)(fmi2Component); /* Enter/Exit..., Terminate, Reset */
typedef fmi2Status (*fmi2GetRealTYPE)(fmi2Component, const fmi2ValueReference[], size_t,
                                      fmi2Real[]);
typedef fmi2Status (*fmi2SetRealTYPE)(fmi2Component, const fmi2ValueReference[], size_t,
                                      const fmi2Real[]);
typedef fmi2Status (*fmi2FMUstateTYPE)(fmi2Component, fmi2FMUstate *); /* Get, Free */
typedef fmi2Status (*fmi2SetFMUstateTYPE)(fmi2Component, fmi2FMUstate);
typedef fmi2Status (*fmi2SerializedFMUstateSizeTYPE)(fmi2Component, fmi2FMUstate, size_t *);
typedef fmi2Status (*fmi2SerializeFMUstateTYPE)(fmi2Component, fmi2FMUstate, fmi2Byte[], size_t);
typedef fmi2Status (*fmi2DeSerializeFMUstateTYPE)(fmi2Component, const fmi2Byte[], size_t,
                                                  fmi2FMUstate *);
typedef fmi2Status (*fmi2NewDiscreteStatesTYPE)(fmi2Component, fmi2EventInfo *);
typedef fmi2Status (*fmi2CompletedIntegratorStepTYPE)(fmi2Component, fmi2Boolean, fmi2Boolean *,
                                                      fmi2Boolean *);
typedef fmi2Status (*fmi2SetTimeTYPE)(fmi2Component, fmi2Real);
typedef fmi2Status (*fmi2SetContinuousStatesTYPE)(fmi2Component, const fmi2Real[], size_t);
typedef fmi2Status (*fmi2GetArrayTYPE)(fmi2Component, fmi2Real[], size_t); /* derivatives, ... */
typedef fmi2Status (*fmi2DoStepTYPE)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean);
typedef fmi2Status (*fmi2GetRealStatusTYPE)(fmi2Component, const fmi2StatusKind, fmi2Real *);
typedef fmi2Status (*fmi2GetBooleanStatusTYPE)(fmi2Component, const fmi2StatusKind, fmi2Boolean *);
typedef fmi2Status (*fmi2GetDirectionalDerivativeTYPE)(fmi2Component, const fmi2ValueReference[],
                                                       size_t, const fmi2ValueReference[], size_t,
                                                       const fmi2Real[], fmi2Real[]);

/* The functions this importer calls, looked up by name. */
typedef struct {
  void *library;
  fmi2GetTypesPlatformTYPE GetTypesPlatform;
  fmi2GetVersionTYPE GetVersion;
  fmi2InstantiateTYPE Instantiate;
  fmi2FreeInstanceTYPE FreeInstance;
  fmi2SetupExperimentTYPE SetupExperiment;
  fmi2ComponentTYPE EnterInitializationMode, ExitInitializationMode, Terminate;
  fmi2GetRealTYPE GetReal;
  fmi2SetRealTYPE SetReal;
  fmi2FMUstateTYPE GetFMUstate, FreeFMUstate;
  fmi2SetFMUstateTYPE SetFMUstate;
  fmi2SerializedFMUstateSizeTYPE SerializedFMUstateSize;
  fmi2SerializeFMUstateTYPE SerializeFMUstate;
  fmi2DeSerializeFMUstateTYPE DeSerializeFMUstate;
  /* Model Exchange */
  fmi2ComponentTYPE EnterEventMode, EnterContinuousTimeMode;
  fmi2NewDiscreteStatesTYPE NewDiscreteStates;
  fmi2CompletedIntegratorStepTYPE CompletedIntegratorStep;
  fmi2SetTimeTYPE SetTime;
  fmi2SetContinuousStatesTYPE SetContinuousStates;
  fmi2GetArrayTYPE GetDerivatives, GetEventIndicators, GetContinuousStates;
  fmi2GetDirectionalDerivativeTYPE GetDirectionalDerivative;
  /* Co-Simulation */
  fmi2DoStepTYPE DoStep;
  fmi2GetRealStatusTYPE GetRealStatus;
  fmi2GetBooleanStatusTYPE GetBooleanStatus;
} Fmi;

/* Every function the standard requires of an FMU of each kind (section
 * 2.1 and 3.2 / 4.2 of FMI 2.0): all are looked up, so that one missing
 * is reported even where this importer does not call it. */
static const char *const common_functions[] = {"fmi2GetTypesPlatform",
                                               "fmi2GetVersion",
                                               "fmi2SetDebugLogging",
                                               "fmi2Instantiate",
                                               "fmi2FreeInstance",
                                               "fmi2SetupExperiment",
                                               "fmi2EnterInitializationMode",
                                               "fmi2ExitInitializationMode",
                                               "fmi2Terminate",
                                               "fmi2Reset",
                                               "fmi2GetReal",
                                               "fmi2GetInteger",
                                               "fmi2GetBoolean",
                                               "fmi2GetString",
                                               "fmi2SetReal",
                                               "fmi2SetInteger",
                                               "fmi2SetBoolean",
                                               "fmi2SetString",
                                               "fmi2GetFMUstate",
                                               "fmi2SetFMUstate",
                                               "fmi2FreeFMUstate",
                                               "fmi2SerializedFMUstateSize",
                                               "fmi2SerializeFMUstate",
                                               "fmi2DeSerializeFMUstate",
                                               "fmi2GetDirectionalDerivative",
                                               NULL};
static const char *const me_functions[] = {"fmi2EnterEventMode",
                                           "fmi2NewDiscreteStates",
                                           "fmi2EnterContinuousTimeMode",
                                           "fmi2CompletedIntegratorStep",
                                           "fmi2SetTime",
                                           "fmi2SetContinuousStates",
                                           "fmi2GetDerivatives",
                                           "fmi2GetEventIndicators",
                                           "fmi2GetContinuousStates",
                                           "fmi2GetNominalsOfContinuousStates",
                                           NULL};
static const char *const cs_functions[] = {"fmi2SetRealInputDerivatives",
                                           "fmi2GetRealOutputDerivatives",
                                           "fmi2DoStep",
                                           "fmi2CancelStep",
                                           "fmi2GetStatus",
                                           "fmi2GetRealStatus",
                                           "fmi2GetIntegerStatus",
                                           "fmi2GetBooleanStatus",
                                           "fmi2GetStringStatus",
                                           NULL};

/* ---- Errors. ---- */
static const char *status_name(fmi2Status s) {
  static const char *const names[] = {"fmi2OK",    "fmi2Warning", "fmi2Discard",
                                      "fmi2Error", "fmi2Fatal",   "fmi2Pending"};
  return (unsigned)s < 6 ? names[s] : "an unknown status";
}

/* The last status above fmi2Warning, so that the instance is not freed
 * after fmi2Fatal (the standard allows no call then). */
static fmi2Status worst_status = fmi2OK;

/* Checks a call's status: fmi2OK and fmi2Warning pass; otherwise prints
 * which call failed and returns 1. */
static int check(fmi2Status s, const char *call) {
  if (s == fmi2OK || s == fmi2Warning)
    return 0;
  fprintf(stderr, "fmu_run: %s returned %s\n", call, status_name(s));
  if (s > worst_status)
    worst_status = s;
  return 1;
}
#define CALL(expr, name)                                                                           \
  do {                                                                                             \
    if (check((expr), (name)))                                                                     \
      return 1;                                                                                    \
  } while (0)

/* The logger the FMU reports through: its message is a printf format for
 * the arguments that follow. */
static void logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status,
                   fmi2String category, fmi2String message, ...) {
  (void)env;
  char text[4096];
  va_list args;
  va_start(args, message);
  vsnprintf(text, sizeof text, message ? message : "", args);
  va_end(args);
  fprintf(stderr, "fmu_run: log [%s] %s %s: %s\n", instance ? instance : "?", status_name(status),
          category ? category : "", text);
}

static void *xmalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) {
    fprintf(stderr, "fmu_run: out of memory\n");
    exit(1);
  }
  return p;
}

/* ---- modelDescription.xml, by plain string search. ---- */
typedef struct {
  char *name;
  fmi2ValueReference vr;
  char causality[24];
  int is_real;
  long derivative; /* 1-based index of the variable this is the derivative of, or 0 */
} Variable;

typedef struct {
  char *guid, *identifier;
  long event_indicators;
  Variable *vars;
  long nvars;
  long *states; /* indices into vars of the continuous states, in the state vector's order */
  long nstates;
  long *outputs; /* indices into vars of the Real outputs that are not states */
  long noutputs;
} Model;

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = xmalloc((size_t)n + 1);
  size_t got = fread(text, 1, (size_t)n, f);
  fclose(f);
  text[got] = '\0';
  return text;
}

/* Blanks out <!-- comments -->, so that no search finds a tag in one. */
static void blank_comments(char *text) {
  char *p = text;
  while ((p = strstr(p, "<!--"))) {
    char *end = strstr(p + 4, "-->");
    char *stop = end ? end + 3 : p + strlen(p);
    memset(p, ' ', (size_t)(stop - p));
    p = stop;
  }
}

/* The '>' that ends the tag starting at TAG ('<'), skipping quoted values. */
static const char *tag_end(const char *tag) {
  char quote = 0;
  for (const char *p = tag + 1; *p; p++) {
    if (quote) {
      if (*p == quote)
        quote = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '>') {
      return p;
    }
  }
  return tag + strlen(tag);
}

/* The next start tag <NAME ...> at or after FROM and before LIMIT (NULL:
 * the end of the text), or NULL. */
static const char *find_tag(const char *from, const char *limit, const char *name) {
  size_t n = strlen(name);
  for (const char *p = from; (p = strchr(p, '<')) && (!limit || p < limit); p++) {
    if (strncmp(p + 1, name, n) == 0 && strchr(" \t\r\n/>", p[1 + n]))
      return p;
  }
  return NULL;
}

/* Where the element whose start tag is at TAG ends: after its "/>" or at
 * its closing tag. */
static const char *element_end(const char *tag, const char *name) {
  const char *end = tag_end(tag);
  if (*end && end[-1] == '/')
    return end + 1;
  char closing[64];
  snprintf(closing, sizeof closing, "</%s", name);
  const char *c = strstr(end, closing);
  return c ? c : end + strlen(end);
}

/* Appends the code point CP as UTF-8. */
static char *put_utf8(char *out, unsigned long cp) {
  if (cp < 0x80) {
    *out++ = (char)cp;
  } else if (cp < 0x800) {
    *out++ = (char)(0xC0 | (cp >> 6));
    *out++ = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out++ = (char)(0xE0 | (cp >> 12));
    *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *out++ = (char)(0x80 | (cp & 0x3F));
  } else {
    *out++ = (char)(0xF0 | (cp >> 18));
    *out++ = (char)(0x80 | ((cp >> 12) & 0x3F));
    *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *out++ = (char)(0x80 | (cp & 0x3F));
  }
  return out;
}

/* A copy of the N characters at S with XML's entity and character
 * references replaced (a name like th1' may be written th1&apos;). */
static char *decode_xml(const char *s, size_t n) {
  static const struct {
    const char *entity;
    char c;
  } entities[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  char *out = xmalloc(4 * n + 1), *o = out;
  for (size_t i = 0; i < n;) {
    int done = 0;
    if (s[i] == '&' && i + 2 < n && s[i + 1] == '#') {
      char *end;
      int hex = s[i + 2] == 'x';
      unsigned long cp = strtoul(s + i + 2 + hex, &end, hex ? 16 : 10);
      if (end < s + n && *end == ';') {
        o = put_utf8(o, cp);
        i = (size_t)(end - s) + 1;
        done = 1;
      }
    }
    for (size_t e = 0; !done && s[i] == '&' && e < sizeof entities / sizeof *entities; e++) {
      size_t len = strlen(entities[e].entity);
      if (i + len <= n && strncmp(s + i, entities[e].entity, len) == 0) {
        *o++ = entities[e].c;
        i += len;
        done = 1;
      }
    }
    if (!done)
      *o++ = s[i++];
  }
  *o = '\0';
  return out;
}

/* The value of the attribute NAME of the start tag at TAG, decoded, in a
 * new string; NULL when the tag has no such attribute. Attributes are read
 * one by one, so that "name" does not match in "modelName" or in a value. */
static char *attribute(const char *tag, const char *name) {
  const char *p = tag + 1, *end = tag_end(tag);
  size_t n = strlen(name);
  while (p < end && !strchr(" \t\r\n/>", *p))
    p++; /* the element's name */
  while (p < end) {
    while (p < end && strchr(" \t\r\n/", *p))
      p++;
    const char *key = p;
    while (p < end && !strchr(" \t\r\n=", *p))
      p++;
    size_t key_len = (size_t)(p - key);
    while (p < end && strchr(" \t\r\n", *p))
      p++;
    if (p >= end || *p != '=')
      return NULL;
    p++;
    while (p < end && strchr(" \t\r\n", *p))
      p++;
    if (p >= end || (*p != '"' && *p != '\''))
      return NULL;
    char quote = *p++;
    const char *value = p;
    while (p < end && *p != quote)
      p++;
    if (key_len == n && strncmp(key, name, n) == 0)
      return decode_xml(value, (size_t)(p - value));
    p++;
  }
  return NULL;
}

static long attribute_long(const char *tag, const char *name, long fallback) {
  char *v = attribute(tag, name);
  long r = v ? strtol(v, NULL, 10) : fallback;
  free(v);
  return r;
}

/* Reads one <ScalarVariable> at TAG into V. */
static void read_variable(const char *tag, Variable *v) {
  char *s = attribute(tag, "name");
  v->name = s ? s : decode_xml("", 0);
  s = attribute(tag, "valueReference");
  v->vr = s ? (fmi2ValueReference)strtoul(s, NULL, 10) : 0;
  free(s);
  s = attribute(tag, "causality");
  snprintf(v->causality, sizeof v->causality, "%s", s ? s : "local");
  free(s);
  /* The type element is the first child: <Real .../>, <Integer .../>, ... */
  const char *end = element_end(tag, "ScalarVariable");
  const char *child = strchr(tag_end(tag), '<');
  v->is_real =
      child && child < end && strncmp(child, "<Real", 5) == 0 && strchr(" \t\r\n/>", child[5]);
  v->derivative = v->is_real ? attribute_long(child, "derivative", 0) : 0;
}

/* The continuous states, in the order of the state vector: that of
 * <ModelStructure><Derivatives>' unknowns (the standard's definition),
 * or, without them, that of the variables that are derivatives. */
static int read_states(Model *m, const char *text) {
  m->states = xmalloc(sizeof(long) * (size_t)(m->nvars + 1));
  const char *structure = find_tag(text, NULL, "ModelStructure");
  const char *ders = structure ? find_tag(structure, NULL, "Derivatives") : NULL;
  if (ders) {
    const char *end = element_end(ders, "Derivatives");
    for (const char *u = ders; (u = find_tag(u + 1, end, "Unknown"));) {
      long index = attribute_long(u, "index", 0);
      if (index < 1 || index > m->nvars || m->vars[index - 1].derivative < 1 ||
          m->vars[index - 1].derivative > m->nvars) {
        fprintf(stderr, "fmu_run: a <Derivatives> unknown (index %ld) is not a derivative\n",
                index);
        return 1;
      }
      m->states[m->nstates++] = m->vars[index - 1].derivative - 1;
    }
    return 0;
  }
  for (long i = 0; i < m->nvars; i++) {
    if (m->vars[i].derivative >= 1 && m->vars[i].derivative <= m->nvars)
      m->states[m->nstates++] = m->vars[i].derivative - 1;
  }
  return 0;
}

/* Reads DIR/modelDescription.xml: what the importer needs of it, for the
 * interface KIND ("ModelExchange" or "CoSimulation"). */
static int read_model(const char *dir, const char *kind, Model *m) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
  char *text = read_file(path);
  if (!text) {
    fprintf(stderr, "fmu_run: cannot read %s\n", path);
    return 1;
  }
  blank_comments(text);
  const char *root = find_tag(text, NULL, "fmiModelDescription");
  const char *iface = find_tag(text, NULL, kind);
  int bad = 0;
  if (!root || !iface) {
    fprintf(stderr, "fmu_run: %s has no <%s>\n", path, root ? kind : "fmiModelDescription");
    bad = 1;
  } else {
    m->guid = attribute(root, "guid");
    m->event_indicators = attribute_long(root, "numberOfEventIndicators", 0);
    m->identifier = attribute(iface, "modelIdentifier");
    if (!m->guid || !m->identifier) {
      fprintf(stderr, "fmu_run: %s lacks the guid or the modelIdentifier\n", path);
      bad = 1;
    }
  }
  const char *vars = bad ? NULL : find_tag(text, NULL, "ModelVariables");
  const char *vars_end = vars ? element_end(vars, "ModelVariables") : NULL;
  for (const char *v = vars; v && (v = find_tag(v + 1, vars_end, "ScalarVariable"));)
    m->nvars++;
  m->vars = xmalloc(sizeof(Variable) * (size_t)(m->nvars + 1));
  long i = 0;
  for (const char *v = vars; v && (v = find_tag(v + 1, vars_end, "ScalarVariable"));)
    read_variable(v, &m->vars[i++]);
  if (!bad)
    bad = read_states(m, text);
  free(text);
  if (bad)
    return 1;
  m->outputs = xmalloc(sizeof(long) * (size_t)(m->nvars + 1));
  for (i = 0; i < m->nvars; i++) {
    int is_state = 0;
    for (long k = 0; k < m->nstates; k++)
      is_state |= m->states[k] == i;
    if (m->vars[i].is_real && !is_state && strcmp(m->vars[i].causality, "output") == 0)
      m->outputs[m->noutputs++] = i;
  }
  return 0;
}

static void free_model(Model *m) {
  for (long i = 0; i < m->nvars; i++)
    free(m->vars[i].name);
  free(m->vars);
  free(m->states);
  free(m->outputs);
  free(m->guid);
  free(m->identifier);
}

static long find_variable(const Model *m, const char *name) {
  for (long i = 0; i < m->nvars; i++) {
    if (strcmp(m->vars[i].name, name) == 0)
      return i;
  }
  return -1;
}

/* ---- The shared library. ---- */

/* Looks up every function the standard requires of this kind of FMU and
 * fills F with those this importer calls; 1 (naming them) if any is
 * missing. */
static int load_functions(Fmi *f, const char *so, int me) {
  f->library = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!f->library) {
    fprintf(stderr, "fmu_run: cannot load %s: %s\n", so, dlerror());
    return 1;
  }
  int missing = 0;
  const char *const *lists[] = {common_functions, me ? me_functions : cs_functions};
  for (int l = 0; l < 2; l++) {
    for (const char *const *name = lists[l]; *name; name++) {
      if (!dlsym(f->library, *name)) {
        fprintf(stderr, "fmu_run: %s does not export %s\n", so, *name);
        missing = 1;
      }
    }
  }
  if (missing)
    return 1;
    /* A data pointer converted to a function pointer, as POSIX's dlsym has it. */
#define LOAD(member) *(void **)&f->member = dlsym(f->library, "fmi2" #member)
  LOAD(GetTypesPlatform);
  LOAD(GetVersion);
  LOAD(Instantiate);
  LOAD(FreeInstance);
  LOAD(SetupExperiment);
  LOAD(EnterInitializationMode);
  LOAD(ExitInitializationMode);
  LOAD(Terminate);
  LOAD(GetReal);
  LOAD(SetReal);
  LOAD(GetFMUstate);
  LOAD(FreeFMUstate);
  LOAD(SetFMUstate);
  LOAD(SerializedFMUstateSize);
  LOAD(SerializeFMUstate);
  LOAD(DeSerializeFMUstate);
  if (me) {
    LOAD(EnterEventMode);
    LOAD(EnterContinuousTimeMode);
    LOAD(NewDiscreteStates);
    LOAD(CompletedIntegratorStep);
    LOAD(SetTime);
    LOAD(SetContinuousStates);
    LOAD(GetDerivatives);
    LOAD(GetEventIndicators);
    LOAD(GetContinuousStates);
    LOAD(GetDirectionalDerivative);
  } else {
    LOAD(DoStep);
    LOAD(GetRealStatus);
    LOAD(GetBooleanStatus);
  }
#undef LOAD
  return 0;
}

/* ---- The run, shared by both kinds. ---- */
typedef struct {
  Fmi f;
  Model m;
  fmi2Component c;
  int me;
  double stop, step;
  long samples; /* the output times: k STEP for k < samples, then STOP */
  fmi2ValueReference *state_vr, *output_vr;
  double *values; /* scratch: the states, then the outputs */
} Run;

static double sample_time(const Run *r, long k) {
  return k >= r->samples ? r->stop : (double)k * r->step;
}

/* A CSV field: a name with a comma or a quote is quoted (RFC 4180). */
static void print_name(const char *name) {
  if (!strpbrk(name, ",\"\n")) {
    printf(",%s", name);
    return;
  }
  printf(",\"");
  for (const char *p = name; *p; p++)
    printf(*p == '"' ? "\"\"" : "%c", *p);
  printf("\"");
}

static void print_header(const Run *r) {
  printf("t");
  for (long k = 0; k < r->m.nstates; k++)
    print_name(r->m.vars[r->m.states[k]].name);
  for (long k = 0; k < r->m.noutputs; k++)
    print_name(r->m.vars[r->m.outputs[k]].name);
  printf("\n");
}

/* Reads a row's values into r->values: the states (X, or read from the
 * FMU by their value references when X is NULL), then the outputs. */
static int read_row(Run *r, const double *x) {
  double *states = r->values, *out = r->values + r->m.nstates;
  if (x) {
    memcpy(states, x, sizeof(double) * (size_t)r->m.nstates);
  } else if (r->m.nstates) {
    CALL(r->f.GetReal(r->c, r->state_vr, (size_t)r->m.nstates, states), "fmi2GetReal");
  }
  if (r->m.noutputs)
    CALL(r->f.GetReal(r->c, r->output_vr, (size_t)r->m.noutputs, out), "fmi2GetReal");
  return 0;
}

static void print_row(const Run *r, double t) {
  printf("%.17g", t);
  for (long k = 0; k < r->m.nstates + r->m.noutputs; k++)
    printf(",%.17g", r->values[k]);
  printf("\n");
}

/* The largest difference between the N values A and B: 0 only when each
 * pair compares equal (a NaN counts as infinitely different). */
static double largest_difference(const double *a, const double *b, long n) {
  double worst = 0;
  for (long k = 0; k < n; k++) {
    if (a[k] == b[k])
      continue;
    double d = fabs(a[k] - b[k]);
    worst = isnan(d) ? INFINITY : d > worst ? d : worst;
  }
  return worst;
}

/* Saves the FMU's state and returns a copy of it made through
 * serialization (size, serialize, deserialize), the original freed: what
 * an importer that stores states does. */
static int snapshot(Run *r, fmi2FMUstate *copy) {
  fmi2FMUstate state = NULL;
  size_t size = 0;
  CALL(r->f.GetFMUstate(r->c, &state), "fmi2GetFMUstate");
  CALL(r->f.SerializedFMUstateSize(r->c, state, &size), "fmi2SerializedFMUstateSize");
  fmi2Byte *bytes = xmalloc(size);
  fmi2Status s = r->f.SerializeFMUstate(r->c, state, bytes, size);
  if (!check(s, "fmi2SerializeFMUstate"))
    s = r->f.DeSerializeFMUstate(r->c, bytes, size, copy);
  free(bytes);
  CALL(s, "fmi2SerializeFMUstate or fmi2DeSerializeFMUstate");
  CALL(r->f.FreeFMUstate(r->c, &state), "fmi2FreeFMUstate");
  return 0;
}

/* Restores the state COPY and frees it. */
static int restore(Run *r, fmi2FMUstate *copy) {
  CALL(r->f.SetFMUstate(r->c, *copy), "fmi2SetFMUstate");
  CALL(r->f.FreeFMUstate(r->c, copy), "fmi2FreeFMUstate");
  return 0;
}

/* 1, saying so, unless the N values NOW equal EXPECTED exactly: a
 * restored state continues the same computation, so nothing may differ. */
static int differ(const double *expected, const double *now, long n, const char *what) {
  double d = largest_difference(expected, now, n);
  if (d == 0)
    return 0;
  fprintf(stderr, "fmu_run: %s: the values differ by up to %.3g\n", what, d);
  return 1;
}

/* Sets the start values NAME=VALUE of ARGS (in Instantiated, where the
 * standard allows variables with a start value and inputs to be set).
 * Returns 2 for a usage error, 1 for an FMU error. */
static int set_start_values(Run *r, int count, char **args) {
  for (int i = 0; i < count; i++) {
    char *eq = strchr(args[i], '=');
    if (!eq || eq == args[i]) {
      fprintf(stderr, "fmu_run: '%s' is not name=value\n", args[i]);
      return 2;
    }
    *eq = '\0';
    char *end;
    double value = strtod(eq + 1, &end);
    long index = find_variable(&r->m, args[i]);
    if (end == eq + 1 || *end || !isfinite(value)) {
      fprintf(stderr, "fmu_run: the value of %s, '%s', is not a number\n", args[i], eq + 1);
      return 2;
    }
    if (index < 0 || !r->m.vars[index].is_real) {
      fprintf(stderr, "fmu_run: the FMU has no Real variable named '%s'\n", args[i]);
      return 2;
    }
    fmi2ValueReference vr = r->m.vars[index].vr;
    CALL(r->f.SetReal(r->c, &vr, 1, &value), "fmi2SetReal");
  }
  return 0;
}

/* ---- Co-Simulation. ---- */

/* After fmi2DoStep returned fmi2Discard: a stop the FMU asked for
 * (fmi2Terminated) ends the run with a row at the last successful time;
 * anything else is an error. Returns 0 for a stop. */
static int cs_discarded(Run *r) {
  fmi2Boolean terminated = fmi2False;
  double last = 0;
  CALL(r->f.GetBooleanStatus(r->c, fmi2Terminated, &terminated),
       "fmi2GetBooleanStatus(fmi2Terminated)");
  if (!terminated) {
    fprintf(stderr, "fmu_run: fmi2DoStep returned fmi2Discard without asking to terminate\n");
    return 1;
  }
  CALL(r->f.GetRealStatus(r->c, fmi2LastSuccessfulTime, &last),
       "fmi2GetRealStatus(fmi2LastSuccessfulTime)");
  if (read_row(r, NULL))
    return 1;
  print_row(r, last);
  return 0;
}

/* At the middle of the run: saves the state, takes the step from T by H,
 * keeps its values in AFTER (*have_after 0 if the step ended the run),
 * restores the state and checks that the values read back are those
 * saved. */
static int cs_state_round_trip(Run *r, double t, double h, double *after, int *have_after) {
  long n = r->m.nstates + r->m.noutputs;
  double *saved = xmalloc(sizeof(double) * (size_t)(n + 1));
  fmi2FMUstate copy = NULL;
  int bad = read_row(r, NULL) || snapshot(r, &copy);
  memcpy(saved, r->values, sizeof(double) * (size_t)n);
  if (!bad) {
    fmi2Status s = r->f.DoStep(r->c, t, h, fmi2False);
    *have_after = s == fmi2OK || s == fmi2Warning;
    bad = s != fmi2Discard && check(s, "fmi2DoStep (before fmi2SetFMUstate)");
  }
  if (!bad && *have_after)
    bad = read_row(r, NULL);
  memcpy(after, r->values, sizeof(double) * (size_t)n);
  if (!bad)
    bad = restore(r, &copy) || read_row(r, NULL) ||
          differ(saved, r->values, n, "cs: the state restored by fmi2SetFMUstate");
  free(saved);
  return bad;
}

static int run_cs(Run *r) {
  long n = r->m.nstates + r->m.noutputs, mid = r->samples / 2;
  double *after = xmalloc(sizeof(double) * (size_t)(n + 1));
  int have_after = 0, bad = read_row(r, NULL);
  if (!bad)
    print_row(r, 0);
  for (long k = 0; k < r->samples && !bad; k++) {
    double t = sample_time(r, k), h = sample_time(r, k + 1) - t;
    if (k == mid && cs_state_round_trip(r, t, h, after, &have_after)) {
      bad = 1;
      break;
    }
    fmi2Status s = r->f.DoStep(r->c, t, h, fmi2False);
    if (s == fmi2Discard) {
      bad = cs_discarded(r);
      break;
    }
    bad = check(s, "fmi2DoStep") || read_row(r, NULL);
    if (bad)
      break;
    print_row(r, t + h);
    if (k == mid && have_after)
      bad =
          differ(after, r->values, n, "cs: the step after fmi2SetFMUstate against the step before");
  }
  free(after);
  return bad;
}

/* ---- Model Exchange. ---- */
typedef struct {
  double t, *x, *x0, *xs, *dx, *k[4], *z, *z0;
  fmi2EventInfo info;
  int terminated;
} Me;

static size_t nx(const Run *r) {
  return (size_t)r->m.nstates;
}
static size_t nz(const Run *r) {
  return (size_t)r->m.event_indicators;
}

/* Puts the FMU at the point (T, X). */
static int set_point(Run *r, double t, const double *x) {
  CALL(r->f.SetTime(r->c, t), "fmi2SetTime");
  if (nx(r))
    CALL(r->f.SetContinuousStates(r->c, x, nx(r)), "fmi2SetContinuousStates");
  return 0;
}

static int derivatives(Run *r, double t, const double *x, double *dx) {
  if (set_point(r, t, x))
    return 1;
  if (nx(r))
    CALL(r->f.GetDerivatives(r->c, dx, nx(r)), "fmi2GetDerivatives");
  return 0;
}

static int indicators(Run *r, double *z) {
  if (nz(r))
    CALL(r->f.GetEventIndicators(r->c, z, nz(r)), "fmi2GetEventIndicators");
  return 0;
}

/* One classic RK4 step of H from (T, IN) to OUT (which may not be IN). */
static int rk4(Run *r, Me *e, double t, double h, const double *in, double *out) {
  static const double c[4] = {0, 0.5, 0.5, 1};
  for (int s = 0; s < 4; s++) {
    const double *y = in;
    if (s > 0) {
      for (size_t i = 0; i < nx(r); i++)
        e->xs[i] = in[i] + c[s] * h * e->k[s - 1][i];
      y = e->xs;
    }
    if (derivatives(r, t + c[s] * h, y, e->k[s]))
      return 1;
  }
  for (size_t i = 0; i < nx(r); i++)
    out[i] = in[i] + h / 6 * (e->k[0][i] + 2 * e->k[1][i] + 2 * e->k[2][i] + e->k[3][i]);
  return 0;
}

/* Whether an indicator left its domain: the standard's events are where
 * z > 0 turns into z <= 0 or back. */
static int crossed(const Run *r, const double *before, const double *after) {
  for (size_t i = 0; i < nz(r); i++) {
    if ((before[i] > 0) != (after[i] > 0))
      return 1;
  }
  return 0;
}

/* The step from (T0, e->x0) by H crossed an indicator: bisects the step
 * length, each trial one RK4 step of its own from the step's start, until
 * the crossing is bracketed to 1e-10 s; leaves the FMU, e->x and e->z at
 * the end just past it and returns its time in *T. */
static int locate(Run *r, Me *e, double t0, double h, double *t) {
  double lo = 0, hi = h;
  while (hi - lo > 1e-10) {
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi)
      break; /* no double between them */
    if (rk4(r, e, t0, mid, e->x0, e->x) || set_point(r, t0 + mid, e->x) || indicators(r, e->z))
      return 1;
    if (crossed(r, e->z0, e->z))
      hi = mid;
    else
      lo = mid;
  }
  *t = t0 + hi;
  return rk4(r, e, t0, hi, e->x0, e->x) || set_point(r, *t, e->x) || indicators(r, e->z);
}

/* The event iteration: fmi2NewDiscreteStates until no new discrete
 * states are needed or the FMU asks to stop; *changed is set when the
 * continuous states were changed. */
static int event_iteration(Run *r, Me *e, int *changed) {
  e->info.newDiscreteStatesNeeded = fmi2True;
  e->info.terminateSimulation = fmi2False;
  while (e->info.newDiscreteStatesNeeded && !e->info.terminateSimulation) {
    CALL(r->f.NewDiscreteStates(r->c, &e->info), "fmi2NewDiscreteStates");
    *changed |= e->info.valuesOfContinuousStatesChanged;
  }
  e->terminated = e->info.terminateSimulation;
  return 0;
}

/* Leaves event mode: continuous-time mode, the (possibly reset) states
 * and the indicators there. */
static int enter_continuous(Run *r, Me *e, int changed) {
  CALL(r->f.EnterContinuousTimeMode(r->c), "fmi2EnterContinuousTimeMode");
  if (changed && nx(r))
    CALL(r->f.GetContinuousStates(r->c, e->x, nx(r)), "fmi2GetContinuousStates");
  return indicators(r, e->z0);
}

/* Handles an event at the FMU's present point. */
static int handle_event(Run *r, Me *e) {
  int changed = 0;
  CALL(r->f.EnterEventMode(r->c), "fmi2EnterEventMode");
  if (event_iteration(r, e, &changed))
    return 1;
  return e->terminated ? 0 : enter_continuous(r, e, changed);
}

/* Integrates from e->t to TARGET: RK4 steps (shortened to a time event),
 * each followed by fmi2CompletedIntegratorStep and the events it, a
 * crossing indicator or a time event call for. */
static int advance(Run *r, Me *e, double target) {
  while (e->t < target && !e->terminated) {
    double t0 = e->t, end = target;
    int time_event = 0, state_event = 0;
    if (e->info.nextEventTimeDefined && e->info.nextEventTime > t0 &&
        e->info.nextEventTime <= end) {
      end = e->info.nextEventTime;
      time_event = 1;
    }
    memcpy(e->x0, e->x, sizeof(double) * nx(r));
    if (rk4(r, e, t0, end - t0, e->x0, e->x) || set_point(r, end, e->x) || indicators(r, e->z))
      return 1;
    if (crossed(r, e->z0, e->z)) {
      double t_event;
      if (locate(r, e, t0, end - t0, &t_event))
        return 1;
      time_event &= t_event >= end;
      state_event = 1;
      end = t_event;
    }
    e->t = end;
    fmi2Boolean enter = fmi2False, stop = fmi2False;
    CALL(r->f.CompletedIntegratorStep(r->c, fmi2True, &enter, &stop),
         "fmi2CompletedIntegratorStep");
    if (stop) {
      e->terminated = 1;
      break;
    }
    if (enter || state_event || time_event) {
      if (handle_event(r, e))
        return 1;
    } else {
      memcpy(e->z0, e->z, sizeof(double) * nz(r));
    }
  }
  return 0;
}

/* Integrates over the output interval that ends at the sample K, in ten
 * RK4 steps (ends included exactly). */
static int advance_interval(Run *r, Me *e, long k) {
  double a = sample_time(r, k - 1), b = sample_time(r, k);
  for (int j = 1; j <= 10 && !e->terminated; j++) {
    if (advance(r, e, j == 10 ? b : a + (b - a) * j / 10))
      return 1;
  }
  return 0;
}

/* The importer's side of a saved point: what fmi2SetFMUstate does not
 * restore, as the importer holds it. */
typedef struct {
  double t, *x, *z0;
  fmi2EventInfo info;
} MeSaved;

/* At the middle of the run, before the interval that ends at sample K:
 * saves the state, integrates the interval, keeps its end in AFTER
 * (*have_after 0 if it ended the run), restores the state and checks the
 * states and indicators read back. */
static int me_state_round_trip(Run *r, Me *e, long k, double *after, int *have_after) {
  MeSaved s = {e->t, xmalloc(sizeof(double) * (nx(r) + 1)), xmalloc(sizeof(double) * (nz(r) + 1)),
               e->info};
  memcpy(s.x, e->x, sizeof(double) * nx(r));
  memcpy(s.z0, e->z0, sizeof(double) * nz(r));
  fmi2FMUstate copy = NULL;
  int bad = snapshot(r, &copy) || advance_interval(r, e, k);
  *have_after = !bad && !e->terminated;
  memcpy(after, e->x, sizeof(double) * nx(r));
  if (!bad)
    bad = restore(r, &copy);
  if (!bad && nx(r))
    bad = check(r->f.GetContinuousStates(r->c, e->x, nx(r)), "fmi2GetContinuousStates");
  if (!bad)
    bad = differ(s.x, e->x, (long)nx(r), "me: the states restored by fmi2SetFMUstate");
  if (!bad)
    bad = indicators(r, e->z) ||
          differ(s.z0, e->z, (long)nz(r), "me: the indicators after fmi2SetFMUstate");
  e->t = s.t;
  e->info = s.info;
  e->terminated = 0;
  memcpy(e->z0, s.z0, sizeof(double) * nz(r));
  free(s.x);
  free(s.z0);
  return bad;
}

/* The value reference of the derivative of state k. */
static fmi2ValueReference derivative_of(const Run *r, long k) {
  for (long i = 0; i < r->m.nvars; ++i)
    if (r->m.vars[i].derivative == r->m.states[k] + 1)
      return r->m.vars[i].vr;
  return 0;
}

/* fmi2GetDirectionalDerivative of the state derivatives along a direction
 * of the states, against central differences of fmi2GetDerivatives (at a
 * step of 1e-6: an error of about 1e-9 of the derivatives); leaves the
 * states as they were (x, nx values). */
static int me_check_directional(Run *r, const double *x) {
  size_t n = nx(r);
  fmi2ValueReference *refs = malloc(2 * n * sizeof *refs);
  double *work = malloc(5 * n * sizeof *work);
  if (!refs || !work) {
    free(refs), free(work);
    return 1;
  }
  double *seed = work, *given = seed + n, *plus = given + n, *minus = plus + n, *moved = minus + n;
  double h = 1e-6;
  for (size_t k = 0; k < n; ++k)
    refs[k] = derivative_of(r, (long)k), refs[n + k] = r->state_vr[k],
    seed[k] = 1.0 + 0.25 * (double)k;
  CALL(r->f.GetDirectionalDerivative(r->c, refs, n, refs + n, n, seed, given),
       "fmi2GetDirectionalDerivative");
  for (int side = -1; side <= 1; side += 2) {
    for (size_t k = 0; k < n; ++k)
      moved[k] = x[k] + side * h * seed[k];
    CALL(r->f.SetContinuousStates(r->c, moved, n), "fmi2SetContinuousStates");
    CALL(r->f.GetDerivatives(r->c, side < 0 ? minus : plus, n), "fmi2GetDerivatives");
  }
  CALL(r->f.SetContinuousStates(r->c, x, n), "fmi2SetContinuousStates");
  int bad = 0;
  for (size_t k = 0; k < n; ++k) {
    double expected = (plus[k] - minus[k]) / (2 * h);
    if (!(fabs(given[k] - expected) <= 1e-6 * fmax(1, fabs(expected)))) {
      fprintf(stderr, "fmu_run: directional derivative of state %zu: %.17g, differences %.17g\n", k,
              given[k], expected);
      bad = 1;
    }
  }
  free(refs), free(work);
  return bad;
}

/* After fmi2ExitInitializationMode: the event iteration, then
 * continuous-time mode with the states and indicators read. */
static int me_start(Run *r, Me *e) {
  int changed = 0;
  if (event_iteration(r, e, &changed))
    return 1;
  if (!e->terminated) {
    CALL(r->f.EnterContinuousTimeMode(r->c), "fmi2EnterContinuousTimeMode");
    if (indicators(r, e->z0))
      return 1;
  }
  if (nx(r))
    CALL(r->f.GetContinuousStates(r->c, e->x, nx(r)), "fmi2GetContinuousStates");
  if (!e->terminated && nx(r) && me_check_directional(r, e->x))
    return 1;
  return 0;
}

static int run_me(Run *r) {
  Me e = {0};
  double **arrays[] = {&e.x, &e.x0, &e.xs, &e.dx, &e.k[0], &e.k[1], &e.k[2], &e.k[3]};
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    *arrays[i] = xmalloc(sizeof(double) * (nx(r) + 1));
  e.z = xmalloc(sizeof(double) * (nz(r) + 1));
  e.z0 = xmalloc(sizeof(double) * (nz(r) + 1));
  double *after = xmalloc(sizeof(double) * (nx(r) + 1));
  long mid = r->samples / 2;
  int have_after = 0, bad = me_start(r, &e) || read_row(r, e.x);
  if (!bad)
    print_row(r, 0);
  for (long k = 1; k <= r->samples && !bad && !e.terminated; k++) {
    if (k - 1 == mid)
      bad = me_state_round_trip(r, &e, k, after, &have_after);
    bad = bad || advance_interval(r, &e, k) || read_row(r, e.x);
    if (bad)
      break;
    /* A stop ends the run with the row at the event. */
    print_row(r, e.terminated ? e.t : sample_time(r, k));
    if (k - 1 == mid && have_after)
      bad = differ(after, e.x, (long)nx(r),
                   "me: the interval after fmi2SetFMUstate against the one before");
  }
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    free(*arrays[i]);
  free(e.z);
  free(e.z0);
  free(after);
  return bad;
}

/* ---- main ---- */
static int usage(void) {
  fprintf(stderr, "usage: fmu_run DIR (me|cs) STOP STEP [name=value ...]\n"
                  "  DIR: an unzipped FMI 2.0 FMU; STOP > 0, STEP > 0: the output times\n");
  return 2;
}

static int positive(const char *text, double *value) {
  char *end;
  *value = strtod(text, &end);
  return end != text && !*end && isfinite(*value) && *value > 0;
}

/* Instantiates the FMU, sets the start values and initializes it. 2 for
 * a usage error. */
static int start(Run *r, const char *dir, int count, char **args) {
  const char *version = r->f.GetVersion(), *platform = r->f.GetTypesPlatform();
  if (!version || strcmp(version, "2.0") != 0 || !platform || strcmp(platform, "default") != 0) {
    fprintf(
        stderr,
        "fmu_run: fmi2GetVersion/fmi2GetTypesPlatform returned '%s'/'%s', not '2.0'/'default'\n",
        version ? version : "(null)", platform ? platform : "(null)");
    return 1;
  }
  char absolute[PATH_MAX], uri[PATH_MAX + 32];
  if (!realpath(dir, absolute))
    snprintf(absolute, sizeof absolute, "%s", dir);
  snprintf(uri, sizeof uri, "file://%s/resources", absolute);
  static const fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};
  r->c = r->f.Instantiate(r->m.identifier, r->me ? fmi2ModelExchange : fmi2CoSimulation, r->m.guid,
                          uri, &callbacks, fmi2False, fmi2False);
  if (!r->c) {
    fprintf(stderr, "fmu_run: fmi2Instantiate returned NULL\n");
    return 1;
  }
  CALL(r->f.SetupExperiment(r->c, fmi2False, 0, 0, fmi2True, r->stop), "fmi2SetupExperiment");
  int status = set_start_values(r, count, args);
  if (status)
    return status;
  CALL(r->f.EnterInitializationMode(r->c), "fmi2EnterInitializationMode");
  CALL(r->f.ExitInitializationMode(r->c), "fmi2ExitInitializationMode");
  return 0;
}

/* The value references of the states and the outputs, and the row's
 * scratch. */
static void prepare(Run *r) {
  r->state_vr = xmalloc(sizeof(fmi2ValueReference) * (size_t)(r->m.nstates + 1));
  r->output_vr = xmalloc(sizeof(fmi2ValueReference) * (size_t)(r->m.noutputs + 1));
  r->values = xmalloc(sizeof(double) * (size_t)(r->m.nstates + r->m.noutputs + 1));
  for (long k = 0; k < r->m.nstates; k++)
    r->state_vr[k] = r->m.vars[r->m.states[k]].vr;
  for (long k = 0; k < r->m.noutputs; k++)
    r->output_vr[k] = r->m.vars[r->m.outputs[k]].vr;
}

int main(int argc, char **argv) {
  Run r = {0};
  if (argc < 5 || (strcmp(argv[2], "me") != 0 && strcmp(argv[2], "cs") != 0) ||
      !positive(argv[3], &r.stop) || !positive(argv[4], &r.step))
    return usage();
  r.me = strcmp(argv[2], "me") == 0;
  r.samples = (long)ceil(r.stop / r.step - 1e-9);
  if (r.samples < 1)
    r.samples = 1;
  if (r.samples > 100000000)
    return usage();
  int status = read_model(argv[1], r.me ? "ModelExchange" : "CoSimulation", &r.m);
  char so[PATH_MAX];
  if (!status) {
    snprintf(so, sizeof so, "%s/binaries/linux64/%s.so", argv[1], r.m.identifier);
    status = load_functions(&r.f, so, r.me);
  }
  if (!status) {
    prepare(&r);
    status = start(&r, argv[1], argc - 5, argv + 5);
  }
  if (!status) {
    print_header(&r);
    status = r.me ? run_me(&r) : run_cs(&r);
  }
  if (!status)
    status = check(r.f.Terminate(r.c), "fmi2Terminate");
  if (r.c && worst_status != fmi2Fatal)
    r.f.FreeInstance(r.c);
  if (r.f.library)
    dlclose(r.f.library);
  free(r.state_vr);
  free(r.output_vr);
  free(r.values);
  free_model(&r.m);
  fflush(stdout);
  return status;
}
