#ifndef CCURL_H
#define CCURL_H
// Typed, non-variadic forwards for libcurl's variadic setopt/getinfo calls. Nothing else.
#include <curl/curl.h>

CURLcode CCurl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode CCurl_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode CCurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode CCurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode CCurl_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback callback);
CURLcode CCurl_easy_setopt_sockopt_callback(CURL *easy, curl_sockopt_callback callback);
CURLcode CCurl_easy_setopt_prereq_callback(CURL *easy, curl_prereq_callback callback);

CURLcode CCurl_easy_getinfo_string(CURL *easy, CURLINFO info, char **out);
CURLcode CCurl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **out);
CURLcode CCurl_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *out);
CURLcode CCurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *out);
CURLcode CCurl_easy_getinfo_socket(CURL *easy, CURLINFO info, curl_socket_t *out);

CURLMcode CCurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode CCurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

#endif
