#include "CCurl.h"

CURLcode CCurl_easy_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }
CURLcode CCurl_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) { return curl_easy_setopt(easy, option, value); }
CURLcode CCurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }
CURLcode CCurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }
CURLcode CCurl_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback callback) { return curl_easy_setopt(easy, option, callback); }
CURLcode CCurl_easy_setopt_sockopt_callback(CURL *easy, curl_sockopt_callback callback) { return curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, callback); }
CURLcode CCurl_easy_setopt_prereq_callback(CURL *easy, curl_prereq_callback callback) { return curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, callback); }

CURLcode CCurl_easy_getinfo_string(CURL *easy, CURLINFO info, char **out) { return curl_easy_getinfo(easy, info, out); }
CURLcode CCurl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **out) { return curl_easy_getinfo(easy, info, out); }
CURLcode CCurl_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *out) { return curl_easy_getinfo(easy, info, out); }

CURLMcode CCurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }
CURLSHcode CCurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) { return curl_share_setopt(share, option, value); }

CURLcode CCurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLcode CCurl_easy_getinfo_socket(CURL *easy, CURLINFO info, curl_socket_t *out) {
    return curl_easy_getinfo(easy, info, out);
}
