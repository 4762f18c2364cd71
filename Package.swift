// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "haul",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "haul", targets: ["haul"]),
        .executable(name: "haul-fault-server", targets: ["haul-fault-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // C shims: one header and one shim.c each, forwards only.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CDigest", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CCipher", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CNcursesw", linkerSettings: [.linkedLibrary("ncursesw")]),
        .target(name: "CFileSystem"),

        .target(name: "HaulCore", swiftSettings: strict),
        .target(
            name: "HaulStore",
            // GRDBSQLite (the SQLite GRDB links) for `TaskRowReader`, which reads a long queue's columns with SQLite's own calls.
            dependencies: [
                "HaulCore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .target(name: "HaulTransfer", dependencies: ["HaulCore", "CCurl", "CDigest", "CCipher", "CFileSystem"], swiftSettings: strict),
        // The settings file (DESIGN §10) and the TOML check every user file passes before TOMLKit reads it.
        .target(
            name: "HaulSettings",
            dependencies: ["HaulCore", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict),
        .target(
            name: "HaulTUI",
            dependencies: ["HaulCore", "HaulSettings", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict),
        .target(name: "HaulReport", dependencies: ["HaulCore"], swiftSettings: strict),
        .target(
            name: "HaulRemote",
            dependencies: [
                "HaulCore", "HaulReport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .target(name: "HaulTerminal", dependencies: ["HaulTUI", "HaulCore", "CNcursesw"], swiftSettings: strict),
        .executableTarget(
            name: "haul",
            dependencies: [
                "HaulCore", "HaulStore", "HaulTransfer", "HaulReport", "HaulRemote", "HaulTUI", "HaulTerminal", "HaulSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        // Writes haul(1) for `make install` and `make deb` from the commands and the registries; never installed.
        .executableTarget(name: "haul-manual", dependencies: ["HaulCore", "HaulTUI"], swiftSettings: strict),

        .target(name: "FaultServer", dependencies: ["HaulCore", "CCipher"], swiftSettings: strict),
        .executableTarget(
            name: "haul-fault-server",
            dependencies: ["FaultServer", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),
        // Fuzz targets (`make fuzz`): each replays saved inputs when built normally (`make test` runs the corpora).
        .target(name: "FuzzSupport", path: "Fuzz/Support", swiftSettings: strict),
        .executableTarget(
            name: "fuzz-json-rpc",
            dependencies: [
                "FuzzSupport", "HaulRemote", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Fuzz/JSONRPC", swiftSettings: strict),
        .executableTarget(name: "fuzz-url-intake", dependencies: ["FuzzSupport", "HaulCore"], path: "Fuzz/URLIntake", swiftSettings: strict),
        .executableTarget(
            name: "fuzz-content-disposition", dependencies: ["FuzzSupport", "HaulCore"], path: "Fuzz/ContentDisposition",
            swiftSettings: strict),
        .executableTarget(
            name: "fuzz-content-range", dependencies: ["FuzzSupport", "HaulCore"], path: "Fuzz/ContentRange", swiftSettings: strict),
        .executableTarget(name: "fuzz-input-file", dependencies: ["FuzzSupport", "HaulCore"], path: "Fuzz/InputFile", swiftSettings: strict),
        .executableTarget(name: "fuzz-playlist", dependencies: ["FuzzSupport", "HaulCore"], path: "Fuzz/Playlist", swiftSettings: strict),
        .executableTarget(name: "fuzz-theme", dependencies: ["FuzzSupport", "HaulTUI"], path: "Fuzz/Theme", swiftSettings: strict),
        .target(name: "HaulTestSupport", dependencies: ["FaultServer", "HaulCore"], path: "Tests/HaulTestSupport", swiftSettings: strict),

        .testTarget(name: "HaulCoreTests", dependencies: ["HaulCore", "HaulTestSupport"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "HaulStoreTests", dependencies: ["HaulStore", "HaulCore"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "HaulTransferTests",
            dependencies: ["HaulTransfer", "HaulCore", "FaultServer", "HaulTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "FaultServerTests", dependencies: ["FaultServer", "HaulTestSupport"], swiftSettings: strict),
        .testTarget(name: "HaulSettingsTests", dependencies: ["HaulSettings", "HaulCore"], swiftSettings: strict),
        .testTarget(name: "HaulReportTests", dependencies: ["HaulReport", "HaulCore"], swiftSettings: strict),
        .testTarget(name: "HaulTUITests", dependencies: ["HaulTUI", "HaulCore"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "HaulRemoteTests", dependencies: ["HaulRemote", "HaulCore", "HaulReport", "HaulTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HaulEndToEndTests",
            dependencies: ["HaulCore", "FaultServer", "HaulTestSupport"],
            exclude: ["Scripts"],
            swiftSettings: strict),
    ]
)
