/// What libcurl hands a transfer from inside `curl_multi_perform`: header lines and body bytes of one of its
/// handles (`easy` tells which).
///
/// The answers follow libcurl's write callbacks: the count taken (fewer aborts the transfer), or
/// `CurlEasy.pauseReading` to keep the bytes and pause until `resume()`.
protocol CurlReceiver: AnyObject {
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int
    func receiveBody(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int
}
