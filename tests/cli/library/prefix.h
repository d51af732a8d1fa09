/* prefix.h: lets one test helper serve a library built with any --prefix.
 * Compile with -include NAME.h -DPREFIX=name -DUPREFIX=NAME (the default is
 * mech / MECH): F(rhs) is name_rhs, S(OK) is NAME_OK, INFO the info struct. */
#ifndef TEST_PREFIX_H
#define TEST_PREFIX_H
#ifndef PREFIX
#define PREFIX mech
#endif
#ifndef UPREFIX
#define UPREFIX MECH
#endif
#define PREFIX_CAT2(a, b) a##_##b
#define PREFIX_CAT(a, b) PREFIX_CAT2(a, b)
#define F(name) PREFIX_CAT(PREFIX, name)
#define S(code) PREFIX_CAT(UPREFIX, code)
#define INFO F(model_info)
#endif
