{{- /*
Shared definitions.

Every template of this chart uses Go text/template's own actions and functions only (define,
template, if, with, range, and, or, not, eq, index, printf), none of the functions Helm adds
(include, toYaml, nindent, quote, default, required…). That way `helm template` and Go's
text/template alone give the same text, which is how the chart is checked
(deploy/test/chart.test.ts). Without nindent, a definition that prints several lines carries the
indentation of the places it is used (the same in both Deployments); labels and selectors are
printed as one-line flow mappings instead, which fit anywhere, and maps and lists from the values
as JSON (tarmac.json).
*/ -}}

{{- /* The chart's name, or nameOverride. */ -}}
{{- define "tarmac.name" -}}
{{- if .Values.nameOverride }}{{ .Values.nameOverride }}{{ else }}{{ .Chart.Name }}{{ end -}}
{{- end -}}

{{- /*
Prefix of every resource name: fullnameOverride, or "<release>-<name>", or the release name alone
when it already is the name. Helm caps release names at 53 characters, so the result fits the 63
of a Service name; the precision in printf only guards a long override.
*/ -}}
{{- define "tarmac.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- printf "%.63s" .Values.fullnameOverride -}}
{{- else -}}
{{- $name := .Values.nameOverride -}}
{{- if not $name }}{{ $name = .Chart.Name }}{{ end -}}
{{- if eq .Release.Name $name }}{{ $name }}{{ else }}{{ printf "%.63s" (printf "%s-%s" .Release.Name $name) }}{{ end -}}
{{- end -}}
{{- end -}}

{{- /*
Any value as JSON, which is YAML too: the stand-in for toYaml, so that maps and lists from the
values (resources, affinity, tolerations, extra env and volumes) pass through as they are.
Strings are printed with %q, whose escapes YAML's double-quoted style reads the same way. Maps
are recognised by how %v prints them ("map[…]"), which holds for Helm's own Values type too.
*/ -}}
{{- define "tarmac.json" -}}
{{- $type := printf "%T" . -}}
{{- if eq $type "string" -}}
{{- printf "%q" . -}}
{{- else if eq $type "<nil>" -}}
null
{{- else if eq (printf "%v" . | printf "%.4s") "map[" -}}
{ {{- $first := true -}}
{{- range $key, $value := . -}}
{{- if not $first }}, {{ end -}}
{{- $first = false -}}
{{- printf "%q" $key }}: {{ template "tarmac.json" $value -}}
{{- end -}} }
{{- else if eq (printf "%v" . | printf "%.1s") "[" -}}
[ {{- range $i, $value := . -}}
{{- if $i }}, {{ end -}}
{{- template "tarmac.json" $value -}}
{{- end -}} ]
{{- else -}}
{{- printf "%v" . -}}
{{- end -}}
{{- end -}}

{{- /* Labels every resource carries, as "key": "value" pairs for a flow mapping. */ -}}
{{- define "tarmac.labelPairs" -}}
"helm.sh/chart": {{ printf "%s-%s" .Chart.Name .Chart.Version | printf "%q" }}, {{ template "tarmac.selectorPairs" . }}, "app.kubernetes.io/version": {{ printf "%q" .Chart.AppVersion }}, "app.kubernetes.io/managed-by": {{ printf "%q" .Release.Service }}
{{- end -}}

{{- /*
The labels a selector matches on. They never change over the release's life: a Deployment's
selector cannot be changed, so the version and chart labels stay out of it.
*/ -}}
{{- define "tarmac.selectorPairs" -}}
"app.kubernetes.io/name": "{{ template "tarmac.name" . }}", "app.kubernetes.io/instance": {{ printf "%q" .Release.Name }}
{{- end -}}

{{- define "tarmac.labels" -}}
{ {{- template "tarmac.labelPairs" . }}}
{{- end -}}

{{- define "tarmac.labels.web" -}}
{ {{- template "tarmac.labelPairs" . }}, "app.kubernetes.io/component": "web"}
{{- end -}}

{{- define "tarmac.labels.worker" -}}
{ {{- template "tarmac.labelPairs" . }}, "app.kubernetes.io/component": "worker"}
{{- end -}}

{{- define "tarmac.selectorLabels.web" -}}
{ {{- template "tarmac.selectorPairs" . }}, "app.kubernetes.io/component": "web"}
{{- end -}}

{{- define "tarmac.selectorLabels.worker" -}}
{ {{- template "tarmac.selectorPairs" . }}, "app.kubernetes.io/component": "worker"}
{{- end -}}

{{- /* The image reference: a digest pins it; otherwise the tag, or the chart's appVersion. */ -}}
{{- define "tarmac.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else if .Values.image.tag -}}
{{- printf "%s:%s" .Values.image.repository .Values.image.tag -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository .Chart.AppVersion -}}
{{- end -}}
{{- end -}}

{{- /* The Secret the pods read their secret environment from: the operator's own, or the chart's. */ -}}
{{- define "tarmac.secretName" -}}
{{- if .Values.existingSecret }}{{ .Values.existingSecret }}{{ else }}{{ template "tarmac.fullname" . }}{{ end -}}
{{- end -}}

{{- define "tarmac.serviceAccountName" -}}
{{- if .Values.serviceAccount.name -}}
{{- .Values.serviceAccount.name -}}
{{- else if .Values.serviceAccount.create -}}
{{- template "tarmac.fullname" . -}}
{{- else -}}
default
{{- end -}}
{{- end -}}

{{- /*
What the web processes run: only HTTP while worker pods take the jobs, both when there are no
worker pods (someone has to run the jobs).
*/ -}}
{{- define "tarmac.webRoles" -}}
{{- if .Values.worker.enabled }}web{{ else }}web,worker{{ end -}}
{{- end -}}

{{- /*
Settings without which the processes would start wrong rather than not at all: without
PUBLIC_URL every link and e-mail would point at localhost; without DATABASE_URL each pod would
open an embedded database of its own on an emptyDir; without SECRET_KEY each would generate its
own key and could not read the others' signed links or sealed secrets. A missing bucket setting
would stop the start with one line, late, in every pod.
Helm's `required` is not a text/template builtin; calling a template that does not exist is,
and it stops the rendering with the template's name, which is therefore the message.
*/ -}}
{{- define "tarmac.checks" -}}
{{- $driver := index .Values.env "STORAGE_DRIVER" -}}
{{- if not (index .Values.env "PUBLIC_URL") -}}
{{- template "set env.PUBLIC_URL: the https:// address users reach, used in links, e-mails and signed download URLs" -}}
{{- end -}}
{{- if not .Values.existingSecret -}}
{{- if not (index .Values.secretEnv "DATABASE_URL") -}}
{{- template "set secretEnv.DATABASE_URL (postgres://…) or existingSecret" -}}
{{- end -}}
{{- if not (index .Values.secretEnv "SECRET_KEY") -}}
{{- template "set secretEnv.SECRET_KEY (at least 32 characters, the same for every pod and kept with the backups) or existingSecret" -}}
{{- end -}}
{{- if and (eq $driver "s3") (not (and (index .Values.secretEnv "S3_ACCESS_KEY_ID") (index .Values.secretEnv "S3_SECRET_ACCESS_KEY"))) -}}
{{- template "set secretEnv.S3_ACCESS_KEY_ID and secretEnv.S3_SECRET_ACCESS_KEY, or existingSecret" -}}
{{- end -}}
{{- if and (eq $driver "gcs") (not (index .Values.secretEnv "GCS_CREDENTIALS")) -}}
{{- template "set secretEnv.GCS_CREDENTIALS (the service account's JSON key) or existingSecret" -}}
{{- end -}}
{{- if and (eq $driver "azure") (not (index .Values.secretEnv "AZURE_STORAGE_CONNECTION_STRING")) -}}
{{- template "set secretEnv.AZURE_STORAGE_CONNECTION_STRING or existingSecret" -}}
{{- end -}}
{{- end -}}
{{- if and (eq $driver "s3") (not (index .Values.env "S3_BUCKET")) -}}
{{- template "set env.S3_BUCKET: the pods share their files through the bucket" -}}
{{- end -}}
{{- if and (eq $driver "gcs") (not (index .Values.env "GCS_BUCKET")) -}}
{{- template "set env.GCS_BUCKET: the pods share their files through the bucket" -}}
{{- end -}}
{{- if and (eq $driver "azure") (not (index .Values.env "AZURE_STORAGE_CONTAINER")) -}}
{{- template "set env.AZURE_STORAGE_CONTAINER: the pods share their files through the container" -}}
{{- end -}}
{{- if and .Values.udidSigning.enabled (not .Values.udidSigning.existingSecret) -}}
{{- template "set udidSigning.existingSecret (a Secret with cert.pem and key.pem) or turn udidSigning off" -}}
{{- end -}}
{{- end -}}

{{- /*
Pod spec fields both Deployments share, at the indentation of a Deployment's pod spec.
*/ -}}
{{- define "tarmac.podSpecCommon" }}
      serviceAccountName: {{ template "tarmac.serviceAccountName" . }}
      # Tarmac never calls the Kubernetes API.
      automountServiceAccountToken: false
      securityContext: {{ template "tarmac.json" .Values.podSecurityContext }}
      {{- with .Values.imagePullSecrets }}
      imagePullSecrets: {{ template "tarmac.json" . }}
      {{- end }}
{{- end -}}

{{- /*
Container fields both Deployments share, at the indentation of a container's fields. The chart
sets these variables itself (the schema keeps them out of env and secretEnv): env entries win
over envFrom, and these must match the ports and volumes declared here.
*/ -}}
{{- define "tarmac.containerCommon" }}
          image: {{ template "tarmac.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          securityContext: {{ template "tarmac.json" .Values.containerSecurityContext }}
          envFrom:
            - configMapRef:
                name: {{ template "tarmac.fullname" . }}
            - secretRef:
                name: {{ template "tarmac.secretName" . }}
{{- end -}}

{{- /* Environment entries both Deployments share, as items of a container's env list. */ -}}
{{- define "tarmac.envCommon" }}
            - name: HOST
              value: "0.0.0.0"
            {{- if .Values.metrics.enabled }}
            - name: METRICS_PORT
              value: {{ printf "%v" .Values.metrics.port | printf "%q" }}
            # The metrics listener binds the loopback address by default; Prometheus scrapes the pod's address.
            - name: METRICS_HOST
              value: "0.0.0.0"
            {{- else }}
            - name: METRICS_PORT
              value: "0"
            {{- end }}
            # Writable scratch space on an emptyDir: the root filesystem is read-only.
            - name: DATA_DIR
              value: /data
            {{- if .Values.udidSigning.enabled }}
            - name: UDID_SIGNING_CERT
              value: /etc/tarmac/udid-signing/cert.pem
            - name: UDID_SIGNING_KEY
              value: /etc/tarmac/udid-signing/key.pem
            {{- end }}
            {{- range .Values.extraEnv }}
            - {{ template "tarmac.json" . }}
            {{- end }}
{{- end -}}

{{- /* Volume mounts both Deployments share, as items of a container's volumeMounts list. */ -}}
{{- define "tarmac.volumeMounts" }}
            - name: tmp
              mountPath: /tmp
            - name: data
              mountPath: /data
            {{- if .Values.udidSigning.enabled }}
            - name: udid-signing
              mountPath: /etc/tarmac/udid-signing
              readOnly: true
            {{- end }}
            {{- range .Values.extraVolumeMounts }}
            - {{ template "tarmac.json" . }}
            {{- end }}
{{- end -}}

{{- /* Volumes both Deployments share, as items of a pod spec's volumes list. */ -}}
{{- define "tarmac.volumes" }}
        - name: tmp
          emptyDir:
            sizeLimit: {{ .Values.tmpSizeLimit }}
        # DATA_DIR: holds the generated UDID signing pair when udidSigning is off; everything that
        # must outlive a pod lives in PostgreSQL and the bucket.
        - name: data
          emptyDir:
            sizeLimit: 64Mi
        {{- if .Values.udidSigning.enabled }}
        - name: udid-signing
          secret:
            secretName: {{ .Values.udidSigning.existingSecret }}
            # 0440 in octal, written in decimal: YAML 1.1 and 1.2 read a leading zero differently.
            defaultMode: 288
            items:
              - key: cert.pem
                path: cert.pem
              - key: key.pem
                path: key.pem
        {{- end }}
        {{- range .Values.extraVolumes }}
        - {{ template "tarmac.json" . }}
        {{- end }}
{{- end -}}

{{- /*
Pod annotations both Deployments share, as entries of a pod template's annotations, at its
indentation. tarmac/env carries the non-secret environment itself: the ConfigMap's data is not
part of the pod template, so without it a change of env alone would not roll the pods (Helm's
sha256sum is not a builtin; the text is what such a checksum would be taken of).
*/ -}}
{{- define "tarmac.podAnnotationsCommon" }}
        tarmac/env: {{ printf "%v" .Values.env | printf "%q" }}
{{- end -}}
