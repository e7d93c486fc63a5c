extension Array {
    /// The element at `index`, or nil outside the array.
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
