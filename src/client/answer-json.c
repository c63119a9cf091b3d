/*
 * The JSON member readers of answer-json.h. Lenient where the protocol
 * lets the server leave a member out or null, strict about types, so a
 * server speaking another version is reported instead of misread.
 */
#include <stdio.h>

#include "answer-json.h"

void answer_json_err(char *err, size_t errsize, const char *what)
{
	if (err && errsize)
		snprintf(err, errsize, "unexpected answer from the server: %s", what);
}

int answer_json_str(const cJSON *o, const char *name, char *buf, size_t size)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
	buf[0] = '\0';
	if (!m || cJSON_IsNull(m))
		return 0;
	if (!cJSON_IsString(m))
		return -1;
	snprintf(buf, size, "%s", m->valuestring);
	return 0;
}

int answer_json_int(const cJSON *o, const char *name, bool optional, int64_t dflt, int64_t *out)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
	if ((!m && optional) || cJSON_IsNull(m)) {
		*out = dflt;
		return 0;
	}
	if (!cJSON_IsNumber(m) || m->valuedouble != (double)(int64_t)m->valuedouble)
		return -1;
	*out = (int64_t)m->valuedouble;
	return 0;
}

bool answer_json_bool(const cJSON *o, const char *name)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, name));
}
