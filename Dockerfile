# A slim image holding only the draftsim binary, for clusters (see docs/cluster.md).
#   docker build -t draftsim .
#   docker run --rm draftsim run --rounds 100000 --quiet

# Build stage: the whole toolchain; polars makes this the slow step (about 20 minutes on 2
# cores, a few on a large machine).
FROM rust:1.89-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin draftsim

# Run stage: the binary alone on a small Debian (same glibc as the build stage).
FROM debian:bookworm-slim
COPY --from=build /src/target/release/draftsim /usr/local/bin/draftsim
WORKDIR /work
ENTRYPOINT ["draftsim"]
CMD ["--help"]
