/// The release this build of Seam is: `seam --version`, `seam_build_info{version}` and the
/// `User-Agent` of Seam's own requests say it, so a dashboard or an ad server's log can tell
/// replicas of a rollout apart. Raised with each release.
package enum SeamRelease {
    package static let version = "0.9.0"
}
