import Foundation
import HaulTestSupport
import Testing

/// `make deb`'s package (scripts/deb.sh), built from this build's haul: its layout, its control file, its Depends
/// from dpkg-shlibdeps, and lintian's verdict.
@Suite(
    .timeLimit(.minutes(5)),
    .enabled(if: (BuiltTools.haulManual != nil || BuiltTools.madeByMake)
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-shlibdeps"), "haul-manual or dpkg-dev is missing"))
struct PackageTests {
    /// Tags lintian gives only because the tests package the debug build: it links the toolchain's Swift libraries
    /// through a RUNPATH (the release build links them statically, `make deb` checks it with none suppressed).
    static let debugBuildTags = "custom-library-search-path"

    @Test func theDebHasHaulsFilesAndLintianFindsNoError() async throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let (built, packagePath, errors) = try await InstallTests.run(
            InstallTests.repository + "/scripts/deb.sh",
            [InstallTests.binDirectory, try InstallTests.requireHaulManual(), out.path],
            environment: ["HAUL_DEB_IGNORE_MISSING_INFO": "1", "HAUL_DEB_COMPRESSION": "gzip"], timeout: .seconds(240))
        try #require(built == 0, "\(errors)")
        let package = packagePath.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(package.hasSuffix("/haul_0.1.0-1_amd64.deb"), "\(package)")

        let (_, listing, _) = try await InstallTests.run("/usr/bin/dpkg-deb", ["--contents", package])
        let paths = Set(listing.split(separator: "\n").compactMap { $0.split(separator: " ").last.map { String($0.dropFirst()) } })
        for path in ["/usr/bin/haul", "/usr/share/man/man1/haul.1.gz", "/usr/share/bash-completion/completions/haul",
                     "/usr/share/zsh/vendor-completions/_haul", "/usr/share/fish/vendor_completions.d/haul.fish",
                     "/usr/lib/systemd/user/haul.service", "/usr/share/haul/themes/default.toml",
                     "/usr/share/doc/haul/copyright", "/usr/share/doc/haul/changelog.Debian.gz"] {
            #expect(paths.contains(path), "\(path) missing from \(paths.sorted())")
        }
        #expect(!paths.contains { $0.contains("install-manifest") })

        let (_, control, _) = try await InstallTests.run("/usr/bin/dpkg-deb", ["--field", package])
        #expect(control.contains("\nDepends: ") && control.contains("libcurl4") && control.contains("libncursesw6")
            && control.contains("libsqlite3-0"), "\(control)")
        #expect(control.contains("Section: net") && control.contains("Priority: optional"))

        let (_, unit, _) = try await InstallTests.run(
            "/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(package)' | tar -xOf - ./usr/lib/systemd/user/haul.service"])
        #expect(unit.contains("ExecStart=/usr/bin/haul ") && unit.contains("SuccessExitStatus=130"), "\(unit)")

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") else { return }
        let (lintian, report, lintianErrors) = try await InstallTests.run(
            "/usr/bin/lintian", ["--fail-on", "error", "--suppress-tags", Self.debugBuildTags, package], timeout: .seconds(240))
        #expect(lintian == 0, "\(report)\(lintianErrors)")
        #expect(!report.contains("E: "), "\(report)")
    }
}
