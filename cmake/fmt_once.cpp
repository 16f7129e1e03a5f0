// fmt compiled once. Debian ships fmt's headers but no static library, so a
// self-contained or cross build used fmt header-only, which compiles all of
// fmt's formatting code again in every source file that formats anything
// (about 6.5 s of each one's compile). Here the rest of the build includes
// fmt as a library would (no FMT_HEADER_ONLY), and this one file defines
// what fmt's headers declare but do not define: format-inl.h's functions,
// non-inline because FMT_HEADER_ONLY is not defined, and the templates the
// headers declare `extern template` or leave undefined, instantiated for
// the types fmt's own library instantiates them for. A missing one fails
// the link, never the run.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
#endif

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

#if FMT_VERSION >= 100000
// fmt 10 declares the char instantiation extern; fmt 9 instantiates it
// wherever it is used.
template FMT_API void vformat_to(buffer<char>&, string_view, typename vformat_args<>::type,
                                 locale_ref);
#endif

} // namespace detail
FMT_END_NAMESPACE
