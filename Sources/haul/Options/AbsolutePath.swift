import HaulCore

/// `path` made absolute against the current directory, the way the intake resolves `-d`.
func absolutePath(_ path: String) -> String {
    TaskIntake(defaultDirectory: path).defaultDirectory
}
