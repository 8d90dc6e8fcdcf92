# Squarely's container image (docs/deploy.md, "Docker"). Each build step is a
# Makefile target that CI runs too: `make web-build`, then the Go half of
# `make build-static`. The final image holds one static binary and nothing
# else: time zones and CA roots are embedded in it.
#
#   docker build -t squarely --build-arg VERSION=$(git describe --tags --always) --build-arg COMMIT=$(git rev-parse HEAD) .

# 1. The React app: web/dist.
FROM node:20-bookworm AS web
WORKDIR /src
COPY Makefile ./
COPY web/package.json web/package-lock.json web/
RUN cd web && npm install --no-audit --no-fund && touch node_modules/.package-lock.json
COPY web/ web/
RUN make web-build

# 2. The static binary with web/dist embedded: bin/squarely-static.
FROM golang:1.26-bookworm AS go
ARG VERSION=dev
ARG COMMIT=unknown
ENV VERSION=${VERSION} COMMIT=${COMMIT}
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist web/dist
RUN make static-binary
# The data volume's mount point, owned by the image's user.
RUN mkdir -p /data && chown 65532:65532 /data

# 3. The image: the binary alone, as a user without privileges.
FROM scratch
COPY --from=go /src/bin/squarely-static /squarely
COPY --from=go --chown=65532:65532 /data /data
USER 65532:65532
ENV SQUARELY_ADDR=:8080 SQUARELY_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["/squarely", "healthcheck"]
ENTRYPOINT ["/squarely"]
CMD ["serve"]
