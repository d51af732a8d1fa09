# Writes a C++ source holding the bytes of INPUT as
# mech::runtime::libraryRuntimeObject(). Run with cmake -P.
file(READ "${INPUT}" bytes HEX)
string(LENGTH "${bytes}" digits)
math(EXPR size "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${bytes}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "// Generated from LibraryRuntime.c by EmbedObject.cmake.
#include \"runtime/library/LibraryRuntimeObject.h\"

namespace mech::runtime {
namespace {
const unsigned char kObject[${size}] = {
${bytes}
};
} // namespace

std::string_view libraryRuntimeObject() {
  return {reinterpret_cast<const char *>(kObject), sizeof kObject};
}
} // namespace mech::runtime
")
